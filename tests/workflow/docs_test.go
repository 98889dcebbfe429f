package workflow

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// readmeMaxLines is how long the README may grow: an index of what the
// docs/ pages hold, short enough to read in one sitting.
const readmeMaxLines = 200

// markdownLink finds the targets of inline Markdown links: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// markdownPage is one Markdown file of the repository: its links outside
// code blocks and the anchors its headings make.
type markdownPage struct {
	links   []string
	anchors map[string]bool
}

// readMarkdown parses the links and heading anchors of a Markdown file of
// the repository, skipping fenced code blocks.
func readMarkdown(t *testing.T, rel string) markdownPage {
	t.Helper()
	page := markdownPage{anchors: map[string]bool{}}
	fenced := false
	for line := range strings.Lines(readFile(t, rel)) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if heading, ok := strings.CutPrefix(line, "#"); ok {
			heading = strings.TrimLeft(heading, "#")
			page.anchors[headingAnchor(heading)] = true
		}
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			page.links = append(page.links, m[1])
		}
	}
	return page
}

// headingAnchor is the anchor GitHub gives a heading: lower case, letters,
// digits, spaces, hyphens and underscores kept, spaces made hyphens.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docsPages lists the Markdown pages of docs/, slash-separated from the
// repository's root.
func docsPages(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(testkit.RepoRoot(t), "docs"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			pages = append(pages, "docs/"+e.Name())
		}
	}
	if len(pages) == 0 {
		t.Fatal("docs/ holds no Markdown page")
	}
	return pages
}

// TestReadmeIsAnIndex holds the template's README to an index of docs/;
// a service made from the template has a short README of its own, which
// links docs/ as a whole.
func TestReadmeIsAnIndex(t *testing.T) {
	onlyInTheTemplate(t)
	t.Parallel()
	if n := strings.Count(readFile(t, "README.md"), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a page in docs/ and link it", n, readmeMaxLines)
	}
	linked := map[string]bool{}
	for _, link := range readMarkdown(t, "README.md").links {
		target, _, _ := strings.Cut(link, "#")
		linked[path.Clean(target)] = true
	}
	for _, page := range docsPages(t) {
		if !linked[page] {
			t.Errorf("README.md does not link %s: every page in docs/ is reachable from the README", page)
		}
	}
}

func TestDocsLinksResolve(t *testing.T) {
	t.Parallel()
	files := append([]string{"README.md"}, docsPages(t)...)
	pages := map[string]markdownPage{}
	for _, rel := range files {
		pages[rel] = readMarkdown(t, rel)
	}
	for _, rel := range files {
		for _, link := range pages[rel].links {
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			file := rel
			if target != "" {
				file = path.Clean(path.Join(path.Dir(rel), target))
			}
			if strings.HasPrefix(file, "../") || !exists(t, file) {
				t.Errorf("%s links %q: %s is not a file of the repository", rel, link, file)
				continue
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			to, ok := pages[file]
			if !ok {
				to = readMarkdown(t, file)
				pages[file] = to
			}
			if !to.anchors[anchor] {
				t.Errorf("%s links %q: %s has no heading #%s (it has %v)", rel, link, file, anchor, slices.Sorted(maps.Keys(to.anchors)))
			}
		}
	}
}
