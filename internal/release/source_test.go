package release

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// gitRepo makes a repository with one commit dated 2026-03-01 12:00:00Z
// and returns its folder and a function running git in it.
func gitRepo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	testenv.LookPath(t, "git", "apt-get install -y git")
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-03-01T12:00:00Z", "GIT_COMMITTER_DATE=2026-03-01T12:00:00Z",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "a")
	return dir, git
}

// TestDescribeUntagged: a commit without a tag is 0.0.0~git<time>.<commit>,
// dated by the commit, not by the clock; from a sub-folder too.
func TestDescribeUntagged(t *testing.T) {
	dir, git := gitRepo(t)
	commit := git("rev-parse", "HEAD")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Describe(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if s.Commit != commit || s.Tag != "" || s.Dirty {
		t.Errorf("Describe = %+v, want commit %s, no tag, clean", s, commit)
	}
	if want := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC); !s.Time.Equal(want) {
		t.Errorf("Time = %v, want %v", s.Time, want)
	}
	if got, want := s.Version(), "0.0.0~git20260301120000."+commit[:12]; got != want {
		t.Errorf("Version = %q, want %q", got, want)
	}
	if err := s.Check(false); err != nil {
		t.Errorf("Check on a clean checkout: %v", err)
	}
}

// TestDescribeTagged: a v-tag on the commit is the version (a
// pre-release's hyphen made Debian's ~); tags that are not versions are
// not.
func TestDescribeTagged(t *testing.T) {
	for _, tt := range []struct{ tags, version string }{
		{"v1.2.0", "1.2.0"},
		{"v1.3.0-rc1", "1.3.0~rc1"},
		{"vacation v1.2 release-1", "1.2"},
		{"vacation", ""},
	} {
		dir, git := gitRepo(t)
		for _, tag := range strings.Fields(tt.tags) {
			git("tag", tag)
		}
		s, err := Describe(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.version
		if want == "" {
			want = "0.0.0~git20260301120000." + s.Commit[:12]
		}
		if got := s.Version(); got != want {
			t.Errorf("tags %q: Version = %q, want %q", tt.tags, got, want)
		}
	}
}

// TestDescribeDirty: a changed file makes the checkout dirty, which Check
// refuses unless allowed; an ignored file does not.
func TestDescribeDirty(t *testing.T) {
	dir, git := gitRepo(t)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("/dist/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".gitignore")
	git("commit", "-q", "-m", "ignore")
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Describe(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dirty {
		t.Error("an ignored file made the checkout dirty")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err = Describe(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if !s.Dirty {
		t.Fatal("a changed file did not make the checkout dirty")
	}
	if err := s.Check(false); !errors.Is(err, ErrDirty) {
		t.Errorf("Check(false) = %v, want ErrDirty", err)
	}
	if err := s.Check(true); err != nil {
		t.Errorf("Check(true) = %v", err)
	}
}

// TestDescribeWorktree: in a worktree the toolchain would not stamp the
// commit, which Describe says before anything is built.
func TestDescribeWorktree(t *testing.T) {
	dir, git := gitRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git("worktree", "add", "-q", wt)
	_, err := Describe(context.Background(), wt)
	if err == nil || !strings.Contains(err.Error(), "worktree") || !strings.Contains(err.Error(), "git clone") {
		t.Errorf("Describe in a worktree of %s = %v", dir, err)
	}
}

// TestDescribeNotACheckout names the problem.
func TestDescribeNotACheckout(t *testing.T) {
	testenv.LookPath(t, "git", "apt-get install -y git")
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	_, err := Describe(context.Background(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not a git checkout") {
		t.Errorf("Describe outside a checkout = %v", err)
	}
}
