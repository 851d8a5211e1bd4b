package httpauth

import (
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// TestCheck: a written-out password and a bcrypt hash each let their user
// in and nobody else: not another user's password, not a user who is not
// configured, not an empty name; a user configured without a password
// never signs in.
func TestCheck(t *testing.T) {
	hash, err := hash("s3cret hashed", bcrypt.MinCost)
	if err != nil || !IsHash(hash) {
		t.Fatalf("Hash: %q %v", hash, err)
	}
	c := New([]User{{Name: "org", Password: "plain pw"}, {Name: "arb", Password: hash}, {Name: "nopw", Password: ""}})
	cases := []struct {
		name, pw string
		want     error
	}{
		{"org", "plain pw", nil},
		{"arb", "s3cret hashed", nil},
		{"org", "plain pw ", ErrWrongCredentials},
		{"org", "plain p", ErrWrongCredentials},
		{"org", "s3cret hashed", ErrWrongCredentials},
		{"arb", "plain pw", ErrWrongCredentials},
		{"arb", hash, ErrWrongCredentials}, // the hash is not the password
		{"ORG", "plain pw", ErrWrongCredentials},
		{"nobody", "plain pw", ErrWrongCredentials},
		{"nopw", "", ErrWrongCredentials},
		{"", "plain pw", ErrNoCredentials},
	}
	for _, tc := range cases {
		if err := c.Check(tc.name, tc.pw); !errors.Is(err, tc.want) {
			t.Errorf("Check(%q, %q) = %v, want %v", tc.name, tc.pw, err, tc.want)
		}
	}
	if err := New(nil).Check("org", "plain pw"); !errors.Is(err, ErrWrongCredentials) {
		t.Errorf("no users: %v", err)
	}
}

// TestHashChecksBounded: while MaxHashChecks bcrypt checks run, another
// is refused with ErrBusy (the CPU is not the attacker's); credentials
// that passed are taken again without a check until RememberFor has
// passed; wrong ones are never remembered.
func TestHashChecksBounded(t *testing.T) {
	hash, _ := hash("pw", bcrypt.MinCost)
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	c := New([]User{{Name: "arb", Password: hash}})
	c.Now = func() time.Time { return now }
	if err := c.Check("arb", "pw"); err != nil {
		t.Fatal(err)
	}
	for range MaxHashChecks {
		c.slots <- struct{}{} // checks running
	}
	if err := c.Check("arb", "pw"); err != nil {
		t.Errorf("remembered credentials while busy: %v", err)
	}
	if err := c.Check("arb", "wrong"); !errors.Is(err, ErrBusy) {
		t.Errorf("a new check while busy: %v, want ErrBusy", err)
	}
	now = now.Add(RememberFor)
	if err := c.Check("arb", "pw"); !errors.Is(err, ErrBusy) {
		t.Errorf("after RememberFor, while busy: %v, want ErrBusy (checked again)", err)
	}
	for range MaxHashChecks {
		<-c.slots
	}
	if err := c.Check("arb", "wrong"); !errors.Is(err, ErrWrongCredentials) {
		t.Errorf("wrong password: %v", err)
	}
	for range MaxHashChecks {
		c.slots <- struct{}{}
	}
	if err := c.Check("arb", "wrong"); !errors.Is(err, ErrBusy) {
		t.Errorf("a wrong password was remembered: %v", err)
	}
}

func TestHashRefusesEmptyAndLong(t *testing.T) {
	if h, err := Hash("pw"); err != nil || bcrypt.CompareHashAndPassword([]byte(h), []byte("pw")) != nil {
		t.Errorf("Hash: %q %v", h, err)
	}
	if _, err := Hash(""); err == nil {
		t.Error("empty password hashed")
	}
	if _, err := Hash(strings.Repeat("x", 73)); err == nil {
		t.Error("a 73-byte password hashed (bcrypt would use only 72 bytes)")
	}
}
