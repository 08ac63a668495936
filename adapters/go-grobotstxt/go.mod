module robotstxt-test/adapters/go-grobotstxt

go 1.19

require github.com/jimsmart/grobotstxt v1.0.3
