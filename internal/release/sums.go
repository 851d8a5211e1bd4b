package release

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SumsFile is the name of the checksum list in dist/, in the format of
// sha256sum: "sha256sum -c SHA256SUMS" checks every file beside it.
const SumsFile = "SHA256SUMS"

// FileSum returns the SHA-256 of the file at path, in hex.
func FileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// WriteSums writes dir/SHA256SUMS with a line for each of the files names
// (in dir), sorted by name.
func WriteSums(dir string, names []string) error {
	names = slices.Sorted(slices.Values(names))
	var b strings.Builder
	for _, n := range names {
		if strings.ContainsAny(n, "/\\\n") {
			return fmt.Errorf("checksums: %q is not a plain file name", n)
		}
		sum, err := FileSum(filepath.Join(dir, n))
		if err != nil {
			return fmt.Errorf("checksums: %w", err)
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, n)
	}
	return os.WriteFile(filepath.Join(dir, SumsFile), []byte(b.String()), 0o644)
}
