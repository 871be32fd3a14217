package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsAreCurrent: the pages generated from the command tree (docs/
// commands, docs/keys.md, docs/config.schema.json) are what the tree
// gives now. When it fails, run 'go run ./internal/docgen' and commit.
func TestDocsAreCurrent(t *testing.T) {
	files := DocFiles()
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "docs", filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs/%s is stale (go run ./internal/docgen rewrites it)", name)
		}
	}
	entries, err := os.ReadDir(filepath.Join("..", "docs", "commands"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if files["commands/"+e.Name()] == nil {
			t.Errorf("docs/commands/%s is no command's page (go run ./internal/docgen removes it)", e.Name())
		}
	}
	for _, c := range docCommands(docsRoot()) {
		if files["commands/"+c.Name()+".md"] == nil {
			t.Errorf("ohwatch %s has no page", c.Name())
		}
	}
}

// TestManPages: a page per command and ohwatch(1), each a man page whose
// lines never start a request by accident.
func TestManPages(t *testing.T) {
	pages := ManPages()
	for _, c := range docCommands(docsRoot()) {
		if pages["ohwatch-"+c.Name()+".1"] == nil {
			t.Errorf("no man page for %s", c.Name())
		}
	}
	for name, p := range pages {
		if !bytes.HasPrefix(p, []byte(".TH ")) || !bytes.Contains(p, []byte("\n.SH NAME\n")) {
			t.Errorf("%s:\n%s", name, p)
		}
	}
	if !bytes.Contains(pages["ohwatch.1"], []byte(".SH ENVIRONMENT")) || !bytes.Contains(pages["ohwatch.1"], []byte("OPENHANDS_PERSISTENCE_DIR")) {
		t.Error("ohwatch(1) lacks the environment")
	}
	if got := roff(".hidden -x \\n"); got != `\&.hidden \-x \en` {
		t.Errorf("roff: %q", got)
	}
	if strings.Contains(string(pages["ohwatch-serve.1"]), "\n.drop") {
		t.Error("a line of serve's page starts a request")
	}
}
