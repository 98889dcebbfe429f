//go:build !unix

package dbscale

import (
	"errors"
	"time"
)

// cpuTime is the CPU time this process has spent: not read on this system.
func cpuTime() (time.Duration, error) {
	return 0, errors.New("the CPU time of a process is read on unix systems only")
}
