package announce_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
	"github.com/dgtbridge/dgtbridge/rules/announce"
)

// needEspeak skips without espeak-ng on a developer's machine and fails
// in CI (CI=true), where `apt-get install -y espeak-ng` must have run.
func needEspeak(t *testing.T) {
	t.Helper()
	testenv.LookPath(t, "espeak-ng", "apt-get install -y espeak-ng")
}

func TestSpeakWAV(t *testing.T) {
	needEspeak(t)
	dir := filepath.Join(t.TempDir(), "speech")
	s, err := announce.NewSpeaker(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang announce.Lang
		text string
	}{
		{announce.German, "Springer Gustav eins – Felix drei, Schach"},
		{announce.English, "Pawn e7 to e8, promotes to Queen"},
		{announce.Vietnamese, "Mã g1 – f3, chiếu"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			path, err := s.Speak(context.Background(), tc.lang, tc.text, "g1-"+string(tc.lang))
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, "g1-"+string(tc.lang)+".wav"); path != want {
				t.Errorf("path %q, want %q", path, want)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(path); err != nil {
				t.Error(err)
			} else if m := st.Mode().Perm(); m != 0o640 {
				t.Errorf("%s: mode %04o, want 0640: an announcement tells a live move", path, m)
			}
			// RIFF....WAVE header and at least a few hundred ms of audio.
			if len(data) < 8000 || !bytes.Equal(data[:4], []byte("RIFF")) || !bytes.Equal(data[8:12], []byte("WAVE")) {
				t.Errorf("%s: %d bytes, not a WAV file with speech", path, len(data))
			}
		})
	}
	left, err := filepath.Glob(filepath.Join(dir, ".*"))
	if err != nil || len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := s.Speak(context.Background(), announce.German, "x", "../escape"); err == nil {
		t.Error("a name with a path was accepted")
	}
}

func TestSpeakCancelled(t *testing.T) {
	needEspeak(t)
	s, err := announce.NewSpeaker(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Speak(ctx, announce.English, "check", "c"); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestSpeakerOffAndMissing(t *testing.T) {
	s, err := announce.NewSpeaker("")
	if err != nil || s != nil {
		t.Fatalf("speech off: %v, %v", s, err)
	}
	if path, err := s.Speak(context.Background(), announce.German, "Schach", "x"); path != "" || err != nil {
		t.Errorf("nil Speaker spoke: %q, %v", path, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := announce.NewSpeaker("device"); !errors.Is(err, announce.ErrNoSpeech) {
		t.Errorf("without espeak-ng: %v, want ErrNoSpeech", err)
	}
}

func TestSpeechText(t *testing.T) {
	for _, tc := range []struct {
		lang     announce.Lang
		in, want string
	}{
		{announce.German, "Laeufer Eva fuenf schlaegt Koenig", "Läufer Eva fünf schlägt König"},
		{announce.German, "3 Zuege. Weiss 1 Minute.", "3 Züge. Weiß 1 Minute."},
		{announce.English, "Pawn e4", "Pawn e4"},
		{announce.Vietnamese, "Mã f5", "Mã f5"},
	} {
		if got := announce.SpeechText(tc.lang, tc.in); got != tc.want {
			t.Errorf("SpeechText(%s, %q) = %q, want %q", tc.lang, tc.in, got, tc.want)
		}
	}
}
