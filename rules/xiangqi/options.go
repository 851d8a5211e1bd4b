package xiangqi

import (
	"errors"
	"fmt"
)

// Dialect is a written move notation (docs/xiangqi.md, "Notation"). The
// dialects share the grammar piece–origin–direction–number and differ in
// piece letters, direction symbols and tandem markers; the same symbol
// means different things in different dialects ("." is advance in VN,
// retreat in DocAsian, traverse in WXF), so the dialect is always
// configured, never guessed.
type Dialect uint8

// The dialects.
const (
	// DialectVN is the Vietnamese law's notation (Art. 11.2(a)), the
	// default: letters Tg S T X P M B, "." advance, "/" retreat, "-"
	// traverse, tandem markers t (front), s (rear), g (middle): "P2-5",
	// "M8.7", "Xt.1".
	DialectVN Dialect = iota
	// DialectDocAsian is the "Asian/World" dialect printed in the law
	// (Art. 11.2(b)): the VN letters and tandem markers with "+" advance,
	// "." retreat, "=" traverse: "P2=5", "M2+3".
	DialectDocAsian
	// DialectWXF is the WXF/AXF notation (docs/xiangqi.md, "Notation"):
	// letters K A E R C H P, "+" advance, "-" retreat, "." traverse (also
	// "=" when parsing), tandem markers "+" (front) and "-" (rear): "C2.5",
	// "H8+7", "R+.3".
	DialectWXF
)

// ErrUnknownDialect is returned by ParseDialect for an unknown name.
var ErrUnknownDialect = errors.New("xiangqi: unknown notation dialect")

// String returns the configuration name of d: "vn", "doc_asian", "wxf".
func (d Dialect) String() string {
	switch d {
	case DialectVN:
		return "vn"
	case DialectDocAsian:
		return "doc_asian"
	case DialectWXF:
		return "wxf"
	}
	return fmt.Sprintf("dialect(%d)", d)
}

// ParseDialect parses a configuration name (notation_dialect of
// docs/xiangqi.md, "Rule sets"): "vn", "doc_asian" or "wxf".
func ParseDialect(s string) (Dialect, error) {
	switch s {
	case "vn":
		return DialectVN, nil
	case "doc_asian":
		return DialectDocAsian, nil
	case "wxf":
		return DialectWXF, nil
	}
	return 0, fmt.Errorf("%w: %q (want vn, doc_asian or wxf)", ErrUnknownDialect, s)
}

// Options are the notation switches of a position. The zero value is the
// default of docs/xiangqi.md ("Rule sets"): the VN dialect, file numbers (not
// tandem markers) for advisors and elephants.
type Options struct {
	// Notation is the dialect SAN writes and ParseMove reads (besides
	// ICCS, which ParseMove always accepts).
	Notation Dialect
	// TandemAdvisorElephant makes SAN write t/s (or +/-) instead of the
	// file number when two advisors or two elephants stand on one file
	// (tandem_for_advisor_elephant, docs/xiangqi.md). The
	// parser accepts both forms either way.
	TandemAdvisorElephant bool
}
