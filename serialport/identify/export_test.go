package identify_test

import "github.com/dgtbridge/dgtbridge/serialport"

func serialportHolders(path string) []serialport.Holder {
	return serialport.Holders([]string{path})[path]
}
