package main

import (
	"fmt"
	"strings"
)

// commandsHeading is the section of the template's README whose ```sh
// block the new service's README keeps: how to run it and test it.
const commandsHeading = "## Two commands"

// readmeSectionLink begins a Markdown link from a page of docs/ to a
// section of the README.
const readmeSectionLink = "](../README.md#"

// defaultCommands is that block when the template's README has none.
const defaultCommands = "```sh\ngo run ./cmd/api\ngo test ./...\n```\n"

// readme is the README a first rename writes in place of the template's:
// the service's name and module, the two commands of the template's
// README, and where the template and its docs are. The template's prose
// and clone line describe the template, not the new service; the links of
// docs/ to the template's README sections go to the template's README
// (see renamer.text).
func (r renamer) readme(template []byte) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", r.newName)
	fmt.Fprintf(&b, "The Go module `%s`: an HTTP service on Fiber v2 and Bun, made with the\n", r.newPath)
	fmt.Fprintf(&b, "[service template](%s) it started from.\n\n", upstreamURL)
	if r.library {
		fmt.Fprintf(&b, "It requires the template's platform as a library, `%s` %s; upgrade it with\n", platformModule, r.version)
		fmt.Fprintf(&b, "`go get %s@vX.Y.Z` (the platform's CHANGELOG.md says what each release changed).\n\n", platformModule)
	}
	fmt.Fprintf(&b, "%s\n\n%s\n", commandsHeading, commandsBlock(string(template)))
	b.WriteString("## Docs\n\n")
	b.WriteString("[docs/](docs/) holds the template's guides as they were when this service was made:\n")
	b.WriteString("configuration, endpoints, testing, the starter (`go run ./cmd/starter resource …`) and the rest.\n")
	fmt.Fprintf(&b, "The newest are in [the template's docs](%s/tree/main/docs).\n", upstreamURL)
	return []byte(b.String())
}

// commandsBlock returns the ```sh block under commandsHeading in the
// template's README, fences included, or defaultCommands.
func commandsBlock(readme string) string {
	_, rest, ok := strings.Cut(readme, "\n"+commandsHeading+"\n")
	if !ok {
		return defaultCommands
	}
	start := strings.Index(rest, "```sh\n")
	if start < 0 || strings.Contains(rest[:start], "\n## ") {
		return defaultCommands
	}
	block := rest[start:]
	end := strings.Index(block[len("```sh\n"):], "\n```")
	if end < 0 {
		return defaultCommands
	}
	return block[:len("```sh\n")+end] + "\n```\n"
}
