package announce

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Sentinels of [Speaker].
var (
	// ErrNoSpeech: espeak-ng is not installed.
	ErrNoSpeech = errors.New("announce: espeak-ng is not installed (apt-get install espeak-ng), so relay.speak cannot speak")
	// ErrSpeech: espeak-ng failed.
	ErrSpeech = errors.New("announce: espeak-ng failed")
)

// Speaker renders announcements with espeak-ng, on the default audio
// device or as WAV files in a folder (relay.speak). A nil *Speaker (speech
// off) does nothing. Speak blocks until espeak-ng is done, so callers run
// it from their own goroutine, never from a board's tracker. A Speaker is
// safe for concurrent use; each call runs its own espeak-ng process.
type Speaker struct {
	bin string // espeak-ng
	dir string // "" plays on the device
}

// NewSpeaker returns the Speaker for a relay.speak setting: "" gives nil
// (speech off), "device" plays on the default audio device, anything else
// is a folder for WAV files (created 0750 if missing; each file 0640). It fails with
// [ErrNoSpeech] when espeak-ng is not on PATH.
func NewSpeaker(speak string) (*Speaker, error) {
	if speak == "" {
		return nil, nil
	}
	bin, err := exec.LookPath("espeak-ng")
	if err != nil {
		return nil, ErrNoSpeech
	}
	s := &Speaker{bin: bin}
	if speak != "device" {
		if err := os.MkdirAll(speak, 0o750); err != nil {
			return nil, fmt.Errorf("announce: relay.speak folder: %w", err)
		}
		s.dir = speak
	}
	return s, nil
}

// voices maps a language to its espeak-ng voice.
var voices = map[Lang]string{English: "en", German: "de", Vietnamese: "vi"}

// Speak says text in lang. On the device it returns "" when done; with a
// folder it writes <folder>/<name>.wav (name is a plain file name such as
// "open2026.1.1-23") atomically and returns its path. Cancelling ctx stops
// espeak-ng.
func (s *Speaker) Speak(ctx context.Context, lang Lang, text, name string) (string, error) {
	if s == nil {
		return "", nil
	}
	voice, ok := voices[lang]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrLang, lang)
	}
	args := []string{"-v", voice, "--stdin"}
	var out, tmp string
	if s.dir != "" {
		if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
			return "", fmt.Errorf("announce: %q is not a plain file name", name)
		}
		out = filepath.Join(s.dir, name+".wav")
		tmp = filepath.Join(s.dir, "."+name+".wav.tmp")
		args = append(args, "-w", tmp)
	}
	cmd := exec.CommandContext(ctx, s.bin, args...)
	cmd.Stdin = strings.NewReader(SpeechText(lang, text))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if tmp != "" {
			os.Remove(tmp)
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("%w: %w: %s", ErrSpeech, err, strings.TrimSpace(stderr.String()))
	}
	if tmp == "" {
		return "", nil
	}
	// espeak-ng writes with the umask's mode; an announcement tells a
	// move as it is played: the daemon's user and group only.
	if err := os.Chmod(tmp, 0o640); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("announce: %w", err)
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("announce: %w", err)
	}
	return out, nil
}

// germanSpeech restores the umlauts the D.2.1 spelling writes as ae, oe,
// ue, so that the German voice pronounces them.
var germanSpeech = strings.NewReplacer(
	"Koenig", "König", "Laeufer", "Läufer", "fuenf", "fünf",
	"schlaegt", "schlägt", "Zuege", "Züge", "Weiss", "Weiß",
)

// SpeechText returns text as the voice of lang should read it: German
// words get their umlauts back; other languages are unchanged.
func SpeechText(lang Lang, text string) string {
	if lang == German {
		return germanSpeech.Replace(text)
	}
	return text
}
