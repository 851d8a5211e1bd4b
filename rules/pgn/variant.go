package pgn

import (
	"fmt"
	"strings"
)

// NormalizeVariant maps the value of a Variant tag to the variant name the
// rules engines use (rules.Position.Variant): "chess", "chess960",
// "crazyhouse", "team-drop" or "xiangqi". Case, spaces, hyphens and
// underscores are ignored, so "Standard", "From Position", "Chess960",
// "chess 960", "chess-960", "Fischerandom", "Fischer Random", "FRC",
// "Crazyhouse" and "zh" are all understood; "Bughouse", which the writer
// uses for team-drop games, reads as "team-drop" (the 004 rules: a real
// bughouse game with promotions or checking drops does not replay under
// them). An empty tag is standard chess.
// Anything else returns an error wrapping ErrUnknownVariant.
func NormalizeVariant(tag string) (string, error) {
	var b strings.Builder
	for _, r := range strings.ToLower(tag) {
		if r == ' ' || r == '-' || r == '_' || r == '\t' {
			continue
		}
		b.WriteRune(r)
	}
	switch b.String() {
	case "", "standard", "chess", "fromposition", "normal", "classical":
		return "chess", nil
	case "chess960", "960", "fischerandom", "fischerrandom", "frc", "fischerrandomchess":
		return "chess960", nil
	case "crazyhouse", "zh":
		return "crazyhouse", nil
	case "teamdrop", "bughouse":
		// Our team-drop games are written "Bughouse" (docs/contract.md §6).
		return "team-drop", nil
	case "xiangqi", "chinesechess":
		return "xiangqi", nil
	}
	return "", fmt.Errorf("%w %q", ErrUnknownVariant, tag)
}

// VariantTag returns the Variant tag value the writer uses for a
// rules-engine variant name (the spelling Lichess uses: "Chess960",
// "Crazyhouse", "Xiangqi", and "Bughouse" for team-drop), or "" for
// standard chess, which takes no Variant tag.
func VariantTag(variant string) string {
	switch variant {
	case "chess", "":
		return ""
	case "chess960":
		return "Chess960"
	case "crazyhouse":
		return "Crazyhouse"
	case "xiangqi":
		return "Xiangqi"
	case "team-drop":
		return "Bughouse"
	}
	return variant
}
