package release

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Source is the commit a release is built from.
type Source struct {
	Root   string    // the checkout's top folder
	Commit string    // full hash
	Time   time.Time // the commit's time (UTC): the date of every file in the packages
	Tag    string    // a v1.2.3 tag on the commit, or ""
	Dirty  bool      // files differ from the commit (git status shows changes)
}

// ErrDirty is returned by [Source.Check] for a checkout with changes: its
// binaries would not be the commit's.
var ErrDirty = errors.New("the checkout has uncommitted changes (git status): commit them, or build with -dirty")

// Describe reads the commit checked out in the folder dir (or one of its
// parents) with git.
func Describe(ctx context.Context, dir string) (Source, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
			}
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	var s Source
	var err error
	if s.Root, err = git("rev-parse", "--show-toplevel"); err != nil {
		return s, fmt.Errorf("not a git checkout (a release is built from a commit): %w", err)
	}
	if s.Commit, err = git("rev-parse", "HEAD"); err != nil {
		return s, err
	}
	ct, err := git("log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return s, err
	}
	sec, err := strconv.ParseInt(ct, 10, 64)
	if err != nil {
		return s, fmt.Errorf("git log: commit time %q: %w", ct, err)
	}
	s.Time = time.Unix(sec, 0).UTC()
	tags, err := git("tag", "--points-at", "HEAD", "--list", "v[0-9]*")
	if err != nil {
		return s, err
	}
	for _, t := range strings.Fields(tags) {
		if versionTag.MatchString(t) && (s.Tag == "" || t > s.Tag) {
			s.Tag = t
		}
	}
	// The Go toolchain stamps the commit only where .git is a folder: not
	// in a worktree added with "git worktree add" (.git is a file there).
	if st, err := os.Stat(filepath.Join(s.Root, ".git")); err != nil || !st.IsDir() {
		return s, fmt.Errorf("%s/.git is not a folder (a git worktree?): go build would not stamp the commit into the binary; build from a clone (git clone %s)", s.Root, s.Root)
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		return s, err
	}
	s.Dirty = status != ""
	return s, nil
}

// versionTag is a release tag: v, numbers and dots, and maybe a
// pre-release after a hyphen (v1.2.0-rc1).
var versionTag = regexp.MustCompile(`^v[0-9]+(\.[0-9]+)*(-[a-z][a-z0-9.]*)?$`)

// Version is the release's version: the tag without its v, a
// pre-release's hyphen made a ~ (1.2.0~rc1 sorts before 1.2.0 in Debian),
// or, on a
// commit without one, 0.0.0~git<commit time>.<commit>: it sorts below
// every release, and two such builds sort by their commits' times.
func (s Source) Version() string {
	if s.Tag != "" {
		return strings.Replace(strings.TrimPrefix(s.Tag, "v"), "-", "~", 1)
	}
	short := s.Commit
	if len(short) > 12 {
		short = short[:12]
	}
	return "0.0.0~git" + s.Time.Format("20060102150405") + "." + short
}

// Check refuses a dirty checkout unless dirty is allowed.
func (s Source) Check(allowDirty bool) error {
	if s.Dirty && !allowDirty {
		return ErrDirty
	}
	return nil
}
