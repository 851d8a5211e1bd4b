// Package systemd holds the files that run dgtbridge as a system service:
// dgtbridge.service (Type=notify, hardened, serial access through the
// dialout group), 70-dgt.rules (udev names and permissions for DGT
// boards) and README.md (install notes). Its tests check the unit with
// systemd-analyze verify. The sd_notify client is the sub-package
// [github.com/dgtbridge/dgtbridge/systemd/sdnotify].
package systemd
