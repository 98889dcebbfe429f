// Command server serves the benchmark's list route, one implementation per
// port, for load tools such as wrk (see bench/wrk.sh):
//
//	server -raw :9001 -raw-mw :9002 -router :9003 -router-jwt :9004
//
// It prints a bearer token for the JWT port and serves until interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/bench"
)

func main() {
	raw := flag.String("raw", "127.0.0.1:9001", "address of plain Fiber")
	rawMW := flag.String("raw-mw", "127.0.0.1:9002", "address of plain Fiber with the router's middleware")
	routed := flag.String("router", "127.0.0.1:9003", "address of the router")
	routedJWT := flag.String("router-jwt", "127.0.0.1:9004", "address of the router behind JWT")
	flag.Parse()

	plain, err := bench.RouterApp(false)
	if err != nil {
		log.Fatal(err)
	}
	withJWT, err := bench.RouterApp(true)
	if err != nil {
		log.Fatal(err)
	}
	token, err := bench.Token()
	if err != nil {
		log.Fatal(err)
	}
	apps := map[string]*fiber.App{*raw: bench.RawApp(false), *rawMW: bench.RawApp(true), *routed: plain, *routedJWT: withJWT}
	for addr, app := range apps {
		go func() {
			if err := app.Listen(addr); err != nil {
				log.Fatalf("%s: %v", addr, err)
			}
		}()
	}
	fmt.Println(token)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	for _, app := range apps {
		_ = app.Shutdown()
	}
}
