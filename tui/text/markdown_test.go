package text

import "testing"

// TestMarkdownRenderersAreKeptPerWidthAndStyle: a renderer is built once
// per width and style and reused. Only a table is rendered to the pane's
// width (other text is wrapped after), so the texts hold one.
func TestMarkdownRenderersAreKeptPerWidthAndStyle(t *testing.T) {
	t.Parallel()
	var r Markdown
	var c Cells
	table := "| a |\n|---|\n| 1 |\n"
	r.Render(table+"# a", 60, "dark", c)
	first := r.byKey[rendererKey{60, "dark"}]
	r.Render(table+"# b", 60, "dark", c)
	if len(r.byKey) != 1 || r.byKey[rendererKey{60, "dark"}] != first {
		t.Fatalf("a second render at the same width and style built a renderer: %d kept", len(r.byKey))
	}
	r.Render(table+"# c", 61, "dark", c)
	r.Render(table+"# d", 60, "light", c)
	if len(r.byKey) != 3 || r.Renders() != 4 {
		t.Fatalf("%d renderers for 3 widths and styles, %d renders", len(r.byKey), r.Renders())
	}
	for w := range 2 * markdownRendererCap {
		r.Render(table+"x", 20+w, "notty", c)
	}
	if len(r.byKey) > markdownRendererCap {
		t.Fatalf("%d renderers kept, cap %d", len(r.byKey), markdownRendererCap)
	}
}
