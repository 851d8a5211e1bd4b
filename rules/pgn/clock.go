package pgn

import "time"

// ParseClock parses the value of a [%clk] or [%emt] command: h:mm:ss with
// any number of hour digits and an optional decimal fraction of seconds
// ("1:30:00", "0:00:03.4", "01:56:25"); m:ss is accepted too. It returns
// ErrBadClock for anything else.
func ParseClock(s string) (time.Duration, error) {
	d, ok := parseClock([]byte(s))
	if !ok {
		return 0, ErrBadClock
	}
	return d, nil
}

func parseClock(b []byte) (time.Duration, bool) {
	var fields [3]int64
	nf := 0
	i := 0
	for {
		start := i
		var v int64
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if v > 1e9 {
				return 0, false
			}
			v = v*10 + int64(b[i]-'0')
			i++
		}
		if i == start || nf == 3 {
			return 0, false
		}
		if nf > 0 && (i-start > 2 || v > 59) {
			return 0, false
		}
		fields[nf] = v
		nf++
		if i < len(b) && b[i] == ':' {
			i++
			continue
		}
		break
	}
	if nf < 2 {
		return 0, false
	}
	var frac time.Duration
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		scale := time.Duration(100 * time.Millisecond)
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			frac += time.Duration(b[i]-'0') * scale
			scale /= 10
			i++
		}
		if i == start {
			return 0, false
		}
	}
	if i != len(b) {
		return 0, false
	}
	var secs int64
	for k := 0; k < nf; k++ {
		secs = secs*60 + fields[k]
	}
	return time.Duration(secs)*time.Second + frac, true
}

// FormatClock formats d as h:mm:ss, the form of [%clk] and [%emt], adding
// one decimal (tenths, truncated) when d is not a whole number of seconds
// ("0:00:03.4"). Negative durations are written as 0:00:00.
func FormatClock(d time.Duration) string {
	return string(appendClock(nil, d))
}

func appendClock(b []byte, d time.Duration) []byte {
	if d < 0 {
		d = 0
	}
	secs := int64(d / time.Second)
	tenths := int64(d%time.Second) / int64(100*time.Millisecond)
	h, m, s := secs/3600, secs/60%60, secs%60
	b = appendInt(b, h)
	b = append(b, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	if tenths > 0 {
		b = append(b, '.', byte('0'+tenths))
	}
	return b
}

func appendInt(b []byte, v int64) []byte {
	if v >= 10 {
		b = appendInt(b, v/10)
	}
	return append(b, byte('0'+v%10))
}
