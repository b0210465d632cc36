# mcheck's image: mcheck and mcheck-job (which runs a swarm step without a
# shell), static, on an empty base, run as a non-root user. The same image
# as tools/image builds without a container engine (which CI builds and
# tests): the same build flags, files, user and environment.
#
#   docker build -t mcheck:devel .
#   docker run --rm mcheck:devel --algo bully --n 4 --crash-any
#
# The tag is mcheck's version (devel for a build from a clone):
# deploy/kubernetes/indexed-job.yaml runs mcheck:devel.
FROM golang:1.26 AS build
WORKDIR /src
# The module's dependencies first, so that a change of the source alone
# does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ENV CGO_ENABLED=0 GOOS=linux GOFLAGS=
RUN go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/usr/local/bin/mcheck ./cmd/mcheck && \
    go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/usr/local/bin/mcheck-job ./deploy/mcheck-job && \
    mkdir -m 1777 /out/tmp

FROM scratch
COPY --from=build /out/ /
ENV PATH=/usr/local/bin HOME=/tmp
WORKDIR /tmp
# A numeric user, so that a pod's runAsNonRoot can check it.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/mcheck"]
