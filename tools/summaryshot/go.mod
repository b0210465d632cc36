module github.com/mcheck/mcheck/tools/summaryshot

go 1.26

require github.com/yuin/goldmark v1.7.12
