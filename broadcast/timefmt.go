package broadcast

import (
	"bytes"
	"time"
)

// timeLayout is the wire format of every time in a payload: RFC 3339 with
// milliseconds, always UTC (interfaces.md §3).
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// Time is a time.Time that marshals as [timeLayout] in UTC, and as null when
// zero. It unmarshals any RFC 3339 time.
type Time struct{ time.Time }

// T wraps t as a [Time].
func T(t time.Time) Time { return Time{t} }

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(timeLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, timeLayout)
	return append(b, '"'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	return t.Time.UnmarshalJSON(b)
}

// Millis converts a duration to whole milliseconds, the wire unit of every
// duration (interfaces.md §3).
func Millis(d time.Duration) int64 { return d.Milliseconds() }
