//go:build !unix

package pgtest

import "errors"

// errNoSignals says the server's processes cannot be signalled here.
var errNoSignals = errors.New("signalling PostgreSQL's processes needs a Unix system")

func (s *localServer) freeze() error { return errNoSignals }

// thaw has nothing to resume where nothing could be frozen.
func (s *localServer) thaw() error { return nil }

func (s *localServer) kill() error { return errNoSignals }
