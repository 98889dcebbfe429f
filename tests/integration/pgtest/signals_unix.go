//go:build unix

package pgtest

import (
	"fmt"
	"syscall"
)

// freeze stops the postmaster, then the processes it started.
func (s *localServer) freeze() error {
	if s.cmd == nil {
		return fmt.Errorf("freeze PostgreSQL: it is not running")
	}
	if s.frozen {
		return fmt.Errorf("freeze PostgreSQL: it is frozen already")
	}
	if err := s.signalAll(syscall.SIGSTOP); err != nil {
		return fmt.Errorf("freeze PostgreSQL: %w", err)
	}
	s.frozen = true
	return nil
}

// thaw resumes every process freeze stopped; it does nothing when the
// server is not frozen.
func (s *localServer) thaw() error {
	if !s.frozen || s.cmd == nil {
		s.frozen = false
		return nil
	}
	s.frozen = false
	if err := s.signalAll(syscall.SIGCONT); err != nil {
		return fmt.Errorf("thaw PostgreSQL: %w", err)
	}
	return nil
}

// kill ends the postmaster and every process it started, and waits for
// the postmaster's exit.
func (s *localServer) kill() error {
	err := s.signalAll(syscall.SIGKILL)
	<-s.exited
	s.log.Close()
	s.cmd, s.exited, s.log, s.frozen = nil, nil, nil, false
	if err != nil {
		return fmt.Errorf("kill PostgreSQL: %w", err)
	}
	return nil
}

// signalAll sends sig to the postmaster first, so it forks no more while
// its children are found, then to each of them.
func (s *localServer) signalAll(sig syscall.Signal) error {
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, sig); err != nil {
		return fmt.Errorf("signal postmaster %d: %w", pid, err)
	}
	children, err := childrenOf(pid)
	if err != nil {
		return err
	}
	for _, c := range children {
		// A backend may have exited since it was listed.
		if err := syscall.Kill(c, sig); err != nil && err != syscall.ESRCH {
			return fmt.Errorf("signal backend %d: %w", c, err)
		}
	}
	return nil
}
