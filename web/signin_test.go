package web

import (
	"os"
	"testing"

	"golang.org/x/net/html"
)

// TestSignInFormClosedUntilScripted: on the staff pages the sign-in form's
// fields are in a disabled fieldset (the script opens it once it handles
// the submission), so a form sent before the script ran carries no
// password, least of all in a query string; the form has no action of its
// own and no "keep me signed in" box.
func TestSignInFormClosedUntilScripted(t *testing.T) {
	for _, p := range []string{"arbiter.html", "hall.html"} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var form *html.Node
		var find func(n *html.Node)
		find = func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "form" && has(n, "data-signin") {
				form = n
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				find(c)
			}
		}
		find(doc)
		if form == nil {
			t.Fatalf("%s: no form[data-signin]", p)
		}
		if has(form, "action") || has(form, "method") {
			t.Errorf("%s: the sign-in form has an action or method of its own", p)
		}
		fields := 0
		var walk func(n *html.Node, closed bool)
		walk = func(n *html.Node, closed bool) {
			if n.Type == html.ElementNode && n.Data == "fieldset" && has(n, "disabled") {
				closed = true
			}
			if n.Type == html.ElementNode && (n.Data == "input" || n.Data == "button") {
				fields++
				if !closed {
					t.Errorf("%s: <%s name=%q> is not in a disabled fieldset", p, n.Data, attr(n, "name"))
				}
				if attr(n, "name") == "remember" {
					t.Errorf("%s: a keep-me-signed-in box", p)
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, closed)
			}
		}
		walk(form, false)
		if fields < 3 {
			t.Errorf("%s: %d fields in the sign-in form", p, fields)
		}
	}
}

func has(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
