module example.com/traps

go 1.26

require github.com/mcheck/mcheck v0.0.0

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/mitchellh/hashstructure/v2 v2.0.2 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
)

replace github.com/mcheck/mcheck => ../../..
