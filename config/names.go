package config

// The variants of contract.md §2.
const (
	VariantChess    = "chess"
	VariantChess960 = "chess960"
	VariantTeamDrop = "team-drop"
	VariantXiangqi  = "xiangqi"
)

// VariantNames returns the variant names a board may declare.
func VariantNames() []string {
	return []string{VariantChess, VariantChess960, VariantTeamDrop, VariantXiangqi}
}

// The board protocols of contract.md §2.
const (
	ProtocolDGT    = "dgt"    // DGT boards and clocks (USB, serial, Bluetooth, bus lines)
	ProtocolOBP    = "obp"    // the Open Board Protocol (xiangqi boards speak it)
	ProtocolManual = "manual" // no board: moves are entered on <p>.input.<g>.move
)

// ProtocolNames returns the protocols a board may declare.
func ProtocolNames() []string { return []string{ProtocolDGT, ProtocolOBP, ProtocolManual} }

// rulesetVariants maps every rule set name of contract.md §2 to the
// variants it can judge. The FIDE Laws cover chess and, through Guideline
// II, Chess960; the 004 sections and the xiangqi rules are variant-specific.
var rulesetVariants = map[string][]string{
	"fide2018-standard": {VariantChess, VariantChess960},
	"fide2018-rapid":    {VariantChess, VariantChess960},
	"fide2018-blitz":    {VariantChess, VariantChess960},
	"fide2001-standard": {VariantChess, VariantChess960},
	"fide2001-rapid":    {VariantChess, VariantChess960},
	"fide2001-blitz":    {VariantChess, VariantChess960},
	"bgo2026-960":       {VariantChess960},
	"bgo2026-team":      {VariantTeamDrop},
	"xiangqi-vn2004":    {VariantXiangqi},
	// Beyond contract.md §2: the 2004 law under the 2015 rapid and blitz
	// regulations.
	"xiangqi-vn2004-rapid": {VariantXiangqi},
	"xiangqi-vn2004-blitz": {VariantXiangqi},
}

// RulesetNames returns the rule set names of contract.md §2, in that
// order, then the xiangqi rapid and blitz rule sets.
func RulesetNames() []string {
	return []string{
		"fide2018-standard", "fide2018-rapid", "fide2018-blitz",
		"fide2001-standard", "fide2001-rapid", "fide2001-blitz",
		"bgo2026-960", "bgo2026-team", "xiangqi-vn2004",
		"xiangqi-vn2004-rapid", "xiangqi-vn2004-blitz",
	}
}

// Languages returns the announcement languages.
func Languages() []string { return []string{"en", "de", "vi"} }

// AutoPort is the port value that means "the first DGT board found".
const AutoPort = "auto"
