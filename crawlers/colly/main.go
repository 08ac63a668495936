// A Colly collector for the crawl mode: visit the seed, then every link on it.
// Usage: crawler SEED_URL USER_AGENT TIMEOUT_SECONDS
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/gocolly/colly/v2"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: crawler SEED_URL USER_AGENT TIMEOUT_SECONDS")
		os.Exit(2)
	}
	seed, agent := os.Args[1], os.Args[2]
	seconds, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, "timeout:", err)
		os.Exit(2)
	}
	c := colly.NewCollector(colly.UserAgent(agent), colly.MaxDepth(2))
	c.IgnoreRobotsTxt = false
	c.SetRequestTimeout(time.Duration(seconds) * time.Second)
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if err := e.Request.Visit(e.Attr("href")); err != nil {
			fmt.Fprintln(os.Stderr, e.Attr("href"), err)
		}
	})
	if err := c.Visit(seed); err != nil {
		fmt.Fprintln(os.Stderr, seed, err)
	}
	c.Wait()
}
