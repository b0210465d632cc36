#!/bin/bash
# Instructions executed (cachegrind's Ir) by the model's benchmarks, for two
# test binaries built with `go test -c ./model`: a count that a loaded host
# does not disturb, where wall-clock runs there differ by +-40%. Each round
# runs each benchmark once per binary, alternating, with the GC off; the
# totals include the benchmarks' setup (the same for both binaries) and go
# to OUT.old and OUT.new in benchstat's format.
#
#   bash bench/cachegrind-ir.sh ROUNDS OLD.test NEW.test OUT
#   benchstat OUT.old OUT.new
set -eu
rounds=$1 old=$2 new=$3 out=$4
: > "$out.old"; : > "$out.new"
for pair in 'Expand/^bully-n4-boot$/^$ 3 Expand/bully-n4-boot' \
	'Expand/^bully-n4-boot$/lazy 3 Expand/bully-n4-boot+lazy' \
	'Expand/^chang-roberts-n4-crash-any$/^$ 3 Expand/chang-roberts-n4-crash-any' \
	'Expand/^chang-roberts-n4-crash-any$/lazy 3 Expand/chang-roberts-n4-crash-any+lazy' \
	'Fingerprint/bully.*/decode 300000 Fingerprint/bully-n4-boot/decode-and-parts' \
	'Fingerprint/chang.*/decode 300000 Fingerprint/chang-roberts-n4-crash-any/decode-and-parts'; do
	read -r pat n name <<<"$pair"
	for _ in $(seq "$rounds"); do
		for v in old new; do
			bin=$old; [ $v = new ] && bin=$new
			ir=$(GOGC=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
				"$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "${n}x" 2>&1 |
				sed -n 's/.*I *refs: *//p' | tr -d ',')
			echo "Benchmark$name 1 $ir instructions" >> "$out.$v"
		done
	done
done
