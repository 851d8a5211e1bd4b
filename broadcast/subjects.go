package broadcast

import (
	"strconv"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ValidToken reports whether s is a valid subject token: one or more of
// [a-z0-9_-] (docs/contract.md §2, event.id).
func ValidToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func checkToken(field, s string) error {
	if !ValidToken(s) {
		return &TokenError{Field: field, Token: s, Err: ErrBadToken}
	}
	return nil
}

// Subjects builds every subject of docs/contract.md §3.1 under one prefix.
// The zero value is not usable; build it with [NewSubjects].
type Subjects struct {
	Prefix string
}

// NewSubjects validates the prefix (a single token) and returns the builder.
func NewSubjects(prefix string) (Subjects, error) {
	if err := checkToken("prefix", prefix); err != nil {
		return Subjects{}, err
	}
	return Subjects{Prefix: prefix}, nil
}

func (s Subjects) game(root string, g game.ID, leaf string) string {
	return s.Prefix + "." + root + "." + g.String() + "." + leaf
}

// move is <p>.game.<g>.move.
func (s Subjects) move(g game.ID) string { return s.game("game", g, "move") }

// correction is <p>.game.<g>.correction.
func (s Subjects) correction(g game.ID) string { return s.game("game", g, "correction") }

// clock is <p>.game.<g>.clock.
func (s Subjects) clock(g game.ID) string { return s.game("game", g, "clock") }

// end is <p>.game.<g>.end.
func (s Subjects) end(g game.ID) string { return s.game("game", g, "end") }

// publicMove is <p>.public.<g>.move.
func (s Subjects) publicMove(g game.ID) string { return s.game("public", g, "move") }

// publicCorrection is <p>.public.<g>.correction.
func (s Subjects) publicCorrection(g game.ID) string { return s.game("public", g, "correction") }

// publicClock is <p>.public.<g>.clock.
func (s Subjects) publicClock(g game.ID) string { return s.game("public", g, "clock") }

// publicEnd is <p>.public.<g>.end.
func (s Subjects) publicEnd(g game.ID) string { return s.game("public", g, "end") }

// publicState is <p>.public.<g>.state: the delayed GameState (an extension of
// contract §3.1: the public counterpart of the KV bucket, and what the public
// PGN feed is rebuilt from after a restart).
func (s Subjects) publicState(g game.ID) string { return s.game("public", g, "state") }

// alert is <p>.arbiter.<g>.alert.
func (s Subjects) alert(g game.ID) string { return s.game("arbiter", g, "alert") }

// command is <p>.arbiter.<g>.cmd (request/reply).
func (s Subjects) command(g game.ID) string { return s.game("arbiter", g, "cmd") }

// announce is <p>.relay.<g>.announce.
func (s Subjects) announce(g game.ID) string { return s.game("relay", g, "announce") }

// boardStatus is <p>.board.<board_id>.status; boardID must be a valid token.
func (s Subjects) boardStatus(boardID string) (string, error) {
	if err := checkToken("board_id", boardID); err != nil {
		return "", err
	}
	return s.Prefix + ".board." + boardID + ".status", nil
}

// roundPGNSubject is <p>.api.pgn.<event>.<round>: the live round PGN (organisers).
func (s Subjects) roundPGNSubject(event string, round int) string {
	return s.Prefix + ".api.pgn." + event + "." + strconv.Itoa(round)
}

// publicRoundPGNSubject is <p>.api.pgn.public.<event>.<round>: the delayed round PGN,
// the one request subject the public role may use. It has one token more than
// [Subjects.roundPGNSubject], so an event named "public" cannot collide with it.
func (s Subjects) publicRoundPGNSubject(event string, round int) string {
	return s.Prefix + ".api.pgn.public." + event + "." + strconv.Itoa(round)
}

// gameFeed is <p>.game.>, the subjects of the GAMES stream.
func (s Subjects) gameFeed() string { return s.Prefix + ".game.>" }

// publicFeed is <p>.public.>, the subjects of the PUBLIC stream.
func (s Subjects) publicFeed() string { return s.Prefix + ".public.>" }

// alertFeed is <p>.arbiter.*.*.*.alert, the subjects of the ALERTS stream.
func (s Subjects) alertFeed() string { return s.Prefix + ".arbiter.*.*.*.alert" }

// gamesStream is <P>_GAMES.
func (s Subjects) gamesStream() string { return strings.ToUpper(s.Prefix) + "_GAMES" }

// publicStream is <P>_PUBLIC.
func (s Subjects) publicStream() string { return strings.ToUpper(s.Prefix) + "_PUBLIC" }

// alertsStream is <P>_ALERTS.
func (s Subjects) alertsStream() string { return strings.ToUpper(s.Prefix) + "_ALERTS" }

// bucket is the KV bucket <p>_games.
func (s Subjects) bucket() string { return s.Prefix + "_games" }

// kvKey is the KV key of a game: <event>.<round>.<board>.
func (s Subjects) kvKey(g game.ID) string { return g.String() }

// kvSubject is the subject a KV put of that game's key is stored under.
func (s Subjects) kvSubject(g game.ID) string { return "$KV." + s.bucket() + "." + g.String() }
