// Adapter for github.com/jimsmart/grobotstxt (protocol in adapters/PROTOCOL.md).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/jimsmart/grobotstxt"
)

type query struct {
	ProductToken string `json:"product_token"`
	Path         string `json:"path"`
	URL          string `json:"url"`
}

type request struct {
	Type      string          `json:"type"`
	Protocol  int             `json:"protocol"`
	ID        json.RawMessage `json:"id"`
	RobotsB64 string          `json:"robots_b64"`
	Queries   []query         `json:"queries"`
}

// check answers every query about one body. A Go string holds bytes as they are, so nothing is
// decoded; AgentAllowed parses the body again for every query, as Google's library does, and
// takes the crawler's product token and the full URL. A panic is the parser refusing the input.
func check(body []byte, queries []query) (allowed []bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	text := string(body)
	for _, q := range queries {
		allowed = append(allowed, grobotstxt.AgentAllowed(text, q.ProductToken, q.URL))
	}
	return allowed, nil
}

// parserVersion is the version of the module this binary was built with, as go.mod pins it.
func parserVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/jimsmart/grobotstxt" {
				return dep.Version
			}
		}
	}
	panic("github.com/jimsmart/grobotstxt is not in the build info")
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil && err != io.EOF {
			panic(err)
		}
		if len(line) > 0 && !answer(line, out) {
			return
		}
		if err == io.EOF {
			return
		}
	}
}

// answer writes the answer to one request line; false means stop.
func answer(line []byte, out *bufio.Writer) bool {
	var msg request
	if err := json.Unmarshal(line, &msg); err != nil {
		panic(fmt.Sprintf("request is not JSON: %v", err))
	}
	var reply any
	switch msg.Type {
	case "hello":
		if msg.Protocol != 1 {
			write(out, map[string]string{"error": fmt.Sprintf("unsupported protocol %d", msg.Protocol)})
			return false
		}
		reply = map[string]string{
			"name": "go-grobotstxt", "parser": "github.com/jimsmart/grobotstxt", "version": parserVersion(),
			"language": "Go", "homepage": "https://github.com/jimsmart/grobotstxt", "profile": "rfc9309",
		}
	case "check":
		body, err := base64.StdEncoding.DecodeString(msg.RobotsB64)
		if err != nil {
			panic(fmt.Sprintf("robots_b64 is not base64: %v", err))
		}
		allowed, err := check(body, msg.Queries)
		if err != nil {
			reply = map[string]any{"id": msg.ID, "error": err.Error()}
			break
		}
		results := make([]string, len(allowed))
		for i, a := range allowed {
			results[i] = map[bool]string{true: "allowed", false: "disallowed"}[a]
		}
		reply = map[string]any{"id": msg.ID, "results": results}
	case "stop":
		return false
	default:
		panic(fmt.Sprintf("unknown request type %q", msg.Type))
	}
	write(out, reply)
	return true
}

func write(out *bufio.Writer, reply any) {
	line, err := json.Marshal(reply)
	if err != nil {
		panic(err)
	}
	out.Write(append(line, '\n'))
	if err := out.Flush(); err != nil {
		panic(err)
	}
}
