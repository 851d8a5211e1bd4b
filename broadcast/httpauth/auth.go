// Package httpauth checks the HTTP Basic credentials of the staff (the
// organisers and arbiters of the configuration) for the HTTP paths that
// show the live hall: /healthz?detail, /metrics and pprof on the public
// listener.
//
// A password is either written out or a bcrypt hash ("$2a$…", "$2b$…",
// "$2y$…", as `dgtbridge passwd` prints): the same values the embedded
// NATS server takes. Written-out passwords are compared in constant time
// (over their SHA-256, so the length does not show); a user name is not a
// secret (it is compared in constant time all the same). A bcrypt check
// costs tens of milliseconds of CPU, so at most [MaxHashChecks] run at
// once (an attacker sending many requests gets [ErrBusy], not the
// daemon's CPU) and credentials that passed are remembered for
// [RememberFor], so a scraper polling /metrics costs one check, not one a
// poll.
package httpauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// MaxHashChecks bounds the bcrypt checks running at once.
const MaxHashChecks = 2

// RememberFor is how long credentials that passed a bcrypt check are
// taken without checking again.
const RememberFor = 10 * time.Minute

// maxRemembered bounds the remembered credentials (the staff is a few
// people; more means many passwords of theirs changed, or a bug).
const maxRemembered = 64

// The errors of [Checker.Check].
var (
	// ErrNoCredentials: the request carries no credentials.
	ErrNoCredentials = errors.New("httpauth: no credentials")
	// ErrWrongCredentials: no staff user has this name and password.
	ErrWrongCredentials = errors.New("httpauth: wrong user or password")
	// ErrBusy: MaxHashChecks checks are running; try again in a moment.
	ErrBusy = errors.New("httpauth: too many sign-ins at once")
)

// User is one staff login: a name and its password, written out or as a
// bcrypt hash.
type User struct {
	Name     string
	Password string
}

// IsHash reports whether a configured password is a bcrypt hash.
func IsHash(password string) bool {
	for _, p := range []string{"$2a$", "$2b$", "$2y$"} {
		if strings.HasPrefix(password, p) {
			return true
		}
	}
	return false
}

type entry struct {
	name  [sha256.Size]byte
	plain [sha256.Size]byte // SHA-256 of a written-out password
	hash  []byte            // bcrypt hash, nil for a written-out password
}

// Checker checks credentials against a fixed list of users. Safe for
// concurrent use.
type Checker struct {
	users []entry
	slots chan struct{}
	// Now is the clock of the remembered credentials (time.Now when nil).
	Now func() time.Time

	mu         sync.Mutex
	remembered map[[sha256.Size]byte]time.Time // credentials → until
}

// New returns a Checker for users. Users without a name or password are
// left out (they can never sign in).
func New(users []User) *Checker {
	c := &Checker{slots: make(chan struct{}, MaxHashChecks), remembered: map[[sha256.Size]byte]time.Time{}}
	for _, u := range users {
		if u.Name == "" || u.Password == "" {
			continue
		}
		e := entry{name: sha256.Sum256([]byte(u.Name))}
		if IsHash(u.Password) {
			e.hash = []byte(u.Password)
		} else {
			e.plain = sha256.Sum256([]byte(u.Password))
		}
		c.users = append(c.users, e)
	}
	return c
}

// Empty reports whether no user can sign in.
func (c *Checker) Empty() bool { return c == nil || len(c.users) == 0 }

func (c *Checker) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Check returns nil when name and password are those of a user,
// [ErrWrongCredentials] when not, [ErrNoCredentials] when name is empty,
// and [ErrBusy] when the password is a bcrypt hash and MaxHashChecks
// checks are already running.
func (c *Checker) Check(name, password string) error {
	if name == "" {
		return ErrNoCredentials
	}
	if c.Empty() {
		return ErrWrongCredentials
	}
	nh, ph := sha256.Sum256([]byte(name)), sha256.Sum256([]byte(password))
	match := -1
	for i := range c.users {
		// Every entry is compared, so the time does not say which matched.
		if subtle.ConstantTimeCompare(c.users[i].name[:], nh[:]) == 1 && match < 0 {
			match = i
		}
	}
	if match < 0 {
		return ErrWrongCredentials
	}
	u := c.users[match]
	if u.hash == nil {
		if subtle.ConstantTimeCompare(u.plain[:], ph[:]) == 1 {
			return nil
		}
		return ErrWrongCredentials
	}
	key := sha256.Sum256([]byte(name + "\x00" + password))
	now := c.now()
	c.mu.Lock()
	until, ok := c.remembered[key]
	c.mu.Unlock()
	if ok && now.Before(until) {
		return nil
	}
	select {
	case c.slots <- struct{}{}:
	default:
		return ErrBusy
	}
	err := bcrypt.CompareHashAndPassword(u.hash, []byte(password))
	<-c.slots
	if err != nil {
		return ErrWrongCredentials
	}
	c.mu.Lock()
	if len(c.remembered) >= maxRemembered {
		clear(c.remembered)
	}
	c.remembered[key] = now.Add(RememberFor)
	c.mu.Unlock()
	return nil
}

// Hash returns the bcrypt hash of password (cost bcrypt.DefaultCost), for
// the configuration. A password longer than 72 bytes is refused (bcrypt
// would use only its first 72).
func Hash(password string) (string, error) { return hash(password, bcrypt.DefaultCost) }

func hash(password string, cost int) (string, error) {
	if password == "" {
		return "", errors.New("httpauth: empty password")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return "", err
	}
	return string(h), nil
}
