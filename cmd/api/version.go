package main

import (
	"fmt"
	"io"
	"runtime"
)

// version identifies the build. Release builds set it at link time:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/api
//
// The Dockerfile and "task build" pass the output of git describe.
var version = "dev"

// printVersion writes "api <version> (<go version> <os>/<arch>)" to w.
func printVersion(w io.Writer) error {
	_, err := fmt.Fprintf(w, "api %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
