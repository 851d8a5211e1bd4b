package release

import (
	"fmt"
	"strings"
	"time"
)

// CommandHelp is one subcommand as its own help describes it: the name
// and one-line summary from "dgtbridge help", and the text that
// "dgtbridge NAME --help" prints.
type CommandHelp struct {
	Name, Summary string
	Help          string
}

// ParseCommands reads the command list of "dgtbridge help": the indented
// lines after "commands:", each a name and its summary.
func ParseCommands(usage string) ([]CommandHelp, error) {
	var cmds []CommandHelp
	in := false
	for _, line := range strings.Split(usage, "\n") {
		switch {
		case strings.TrimSpace(line) == "commands:":
			in = true
		case in && strings.HasPrefix(line, "  ") && strings.TrimSpace(line) != "":
			name, summary, _ := strings.Cut(strings.TrimSpace(line), " ")
			cmds = append(cmds, CommandHelp{Name: name, Summary: strings.TrimSpace(summary)})
		case in && strings.TrimSpace(line) == "":
			if len(cmds) > 0 {
				in = false
			}
		}
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("the help lists no commands (no indented lines after \"commands:\"):\n%s", usage)
	}
	return cmds, nil
}

// commandHelp is a subcommand's --help text taken apart.
type commandHelp struct {
	usage string   // "dgtbridge run [--config FILE] …"
	text  []string // the description's lines
	flags []flagHelp
}

type flagHelp struct {
	name string   // "-config string"
	text []string // its description's lines
}

// parseHelp takes apart the text of "dgtbridge NAME --help": a usage
// line, the description, and the flags that flag.PrintDefaults lists.
func parseHelp(name, help string) (commandHelp, error) {
	lines := strings.Split(strings.TrimRight(help, "\n"), "\n")
	var h commandHelp
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "usage: dgtbridge") {
		return h, fmt.Errorf("%s --help: the first line is not \"usage: dgtbridge …\": %q", name, lines[0])
	}
	h.usage = strings.TrimPrefix(lines[0], "usage: ")
	inFlags := false
	for _, l := range lines[1:] {
		switch {
		case !inFlags && l == "flags:":
			inFlags = true
		case !inFlags:
			h.text = append(h.text, l)
		case strings.HasPrefix(l, "  -"):
			h.flags = append(h.flags, flagHelp{name: strings.TrimSpace(l)})
		case strings.HasPrefix(l, "    \t") && len(h.flags) > 0:
			f := &h.flags[len(h.flags)-1]
			f.text = append(f.text, strings.TrimPrefix(l, "    \t"))
		case strings.TrimSpace(l) == "":
		default:
			return h, fmt.Errorf("%s --help: unexpected line among the flags: %q", name, l)
		}
	}
	return h, nil
}

// ManPage renders dgtbridge(1) in roff from the commands' own help, so
// that the manual says what the binary it ships with does.
func ManPage(version string, date time.Time, cmds []CommandHelp) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH DGTBRIDGE 1 %s %s \"User Commands\"\n", quote(date.UTC().Format("2006-01-02")), quote("dgtbridge "+version))
	// No hyphenation: paths and flags are copied from the page.
	b.WriteString(".nh\n.SH NAME\ndgtbridge \\- electronic chess boards and clocks to NATS\n")
	b.WriteString(".SH SYNOPSIS\n.B dgtbridge\n.RI [ command ]\n.RI [ flags ]\n")
	b.WriteString(".SH DESCRIPTION\n")
	para(&b, "dgtbridge reads electronic chess boards (DGT boards on USB, serial lines, DGT bus lines "+
		"and Bluetooth; Open Board Protocol boards) and their clocks, turns what their sensors report "+
		"into games, judges them by the event's rule set, and publishes them over NATS, with a delayed "+
		"public copy, PGN over HTTP, web pages and an optional push to Lichess.")
	para(&b, "A bare dgtbridge is dgtbridge run. The service runs it under systemd as "+
		"dgtbridge run --config /etc/dgtbridge/dgtbridge.yaml; systemctl reload dgtbridge re-reads "+
		"the configuration and the pairing file for a new round.")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range cmds {
		h, err := parseHelp(c.Name, c.Help)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, ".SS %s\n", text(c.Name))
		fmt.Fprintf(&b, ".B %s\n.br\n", text(h.usage))
		lines := h.text
		for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
			lines = lines[1:]
		}
		if len(lines) == 0 {
			lines = []string{c.Summary}
		}
		prev := ""
		for _, l := range lines {
			if strings.TrimSpace(l) == "" {
				if prev != "" {
					b.WriteString(".PP\n")
				}
			} else {
				b.WriteString(line(l))
			}
			prev = strings.TrimSpace(l)
		}
		for _, f := range h.flags {
			name, arg, _ := strings.Cut(f.name, " ")
			if arg != "" {
				fmt.Fprintf(&b, ".TP\n.BI \\-%s \" %s\"\n", text(strings.TrimLeft(name, "-")), text(arg))
			} else {
				fmt.Fprintf(&b, ".TP\n.B \\-%s\n", text(strings.TrimLeft(name, "-")))
			}
			for _, l := range f.text {
				b.WriteString(line(l))
			}
		}
	}
	b.WriteString(".SH FILES\n")
	for _, f := range [][2]string{
		{"/etc/dgtbridge/dgtbridge.yaml", "The configuration (a commented example with every key). \"dgtbridge run --check\" checks it."},
		{"/etc/dgtbridge/pairings.csv", "The pairing file the example configuration names (event.pairings)."},
		{"/etc/default/dgtbridge", "Optional DGTBRIDGE_... variables for the service."},
		{"/var/lib/dgtbridge", "The state: game records, the outbox journal, recordings, the embedded NATS store."},
		{"/usr/share/doc/dgtbridge", "The operations guide, the copyright and the third-party notices."},
	} {
		fmt.Fprintf(&b, ".TP\n.I %s\n%s", text(f[0]), line(f[1]))
	}
	b.WriteString(".SH ENVIRONMENT\n")
	para(&b, "Every configuration key can be given as DGTBRIDGE_ plus the key in upper case with _ "+
		"for each dot, e.g. DGTBRIDGE_NATS_URL or DGTBRIDGE_DATA_DIR; the environment wins over the "+
		"file and flags win over both.")
	b.WriteString(".SH EXIT STATUS\n")
	para(&b, "0 on success, 1 on an error (named on standard error), 2 on a mistake in the command line.")
	b.WriteString(".SH SEE ALSO\n.BR systemctl (1),\n.BR journalctl (1),\n.BR udevadm (8)\n")
	return []byte(b.String()), nil
}

// para writes a paragraph.
func para(b *strings.Builder, s string) { b.WriteString(".PP\n" + line(s)) }

// line is one line of running text: escaped, and kept from being read as
// a request when it starts with a dot or an apostrophe.
func line(s string) string {
	s = text(strings.TrimSpace(s))
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s + "\n"
}

// quote is a request argument in double quotes.
func quote(s string) string { return "\"" + strings.ReplaceAll(text(s), "\"", "\\(dq") + "\"" }

// text escapes s for roff: backslashes, hyphens (as minus signs, so that
// options can be copied), and every character outside ASCII as its
// Unicode name.
func text(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString("\\e")
		case r == '-':
			b.WriteString("\\-")
		case r > 0x7e || r < 0x20 && r != '\t':
			fmt.Fprintf(&b, "\\[u%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
