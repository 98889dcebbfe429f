//go:build unix

package pgtest

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// signalWait bounds the wait for a signalled process to stop or to die.
const signalWait = 10 * time.Second

// freeze stops the postmaster, then the processes it started.
func (s *localServer) freeze() error {
	if s.cmd == nil {
		return fmt.Errorf("freeze PostgreSQL: it is not running")
	}
	if s.frozen {
		return fmt.Errorf("freeze PostgreSQL: it is frozen already")
	}
	if _, err := s.stopAll(); err != nil {
		return fmt.Errorf("freeze PostgreSQL: %w", err)
	}
	s.frozen = true
	return nil
}

// thaw resumes every process freeze stopped, the postmaster last; it does
// nothing when the server is not frozen.
func (s *localServer) thaw() error {
	if !s.frozen || s.cmd == nil {
		s.frozen = false
		return nil
	}
	s.frozen = false
	pid := s.cmd.Process.Pid
	children, err := childrenOf(pid)
	if err == nil {
		err = signalEach(children, syscall.SIGCONT)
	}
	if cerr := syscall.Kill(pid, syscall.SIGCONT); cerr != nil {
		err = errors.Join(err, fmt.Errorf("resume postmaster %d: %w", pid, cerr))
	}
	if err != nil {
		return fmt.Errorf("thaw PostgreSQL: %w", err)
	}
	return nil
}

// kill ends the postmaster and every process it started, and waits until
// all of them are dead, so that a restart finds the shared memory free.
// Everything is stopped first (see stopAll): a postmaster killed first
// would hand its backends to init before they were listed, and they would
// outlive it.
func (s *localServer) kill() error {
	pid := s.cmd.Process.Pid
	children, err := s.stopAll()
	err = errors.Join(err, signalEach(children, syscall.SIGKILL))
	if kerr := syscall.Kill(pid, syscall.SIGKILL); kerr != nil {
		err = errors.Join(err, fmt.Errorf("kill postmaster %d: %w", pid, kerr))
	}
	<-s.exited
	s.log.Close()
	s.cmd, s.exited, s.log, s.frozen = nil, nil, nil, false
	err = errors.Join(err, waitDead(children))
	if err != nil {
		return fmt.Errorf("kill PostgreSQL: %w", err)
	}
	return nil
}

// stopAll stops the postmaster with SIGSTOP and waits until it is stopped,
// so that it forks no more and stays the parent of its backends, then
// stops each of those and returns them.
func (s *localServer) stopAll() ([]int, error) {
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return nil, fmt.Errorf("stop postmaster %d: %w", pid, err)
	}
	if err := waitState(pid, "stopped", func(state byte, exists bool) bool { return !exists || state == 'T' }); err != nil {
		return nil, err
	}
	children, err := childrenOf(pid)
	if err != nil {
		return nil, err
	}
	return children, signalEach(children, syscall.SIGSTOP)
}

// signalEach sends sig to each of pids; one that has exited since it was
// listed is no error.
func signalEach(pids []int, sig syscall.Signal) error {
	var errs []error
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("signal backend %d: %w", pid, err))
		}
	}
	return errors.Join(errs...)
}

// waitDead waits until each of pids has exited: gone, or a zombie, which
// holds no memory any more (its parent, dead too, cannot reap it, and the
// init of a container may not).
func waitDead(pids []int) error {
	var errs []error
	for _, pid := range pids {
		errs = append(errs, waitState(pid, "dead", func(state byte, exists bool) bool { return !exists || state == 'Z' || state == 'X' }))
	}
	return errors.Join(errs...)
}

// waitState polls the state of process pid until done holds, for at most
// signalWait; what names the awaited state for the error.
func waitState(pid int, what string, done func(state byte, exists bool) bool) error {
	deadline := time.Now().Add(signalWait)
	for {
		state, exists, err := processState(pid)
		if err != nil {
			return err
		}
		if done(state, exists) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("process %d is not %s %s after the signal (state %c)", pid, what, signalWait, state)
		}
		time.Sleep(time.Millisecond)
	}
}
