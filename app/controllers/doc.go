// Package controllers declares the routes of the example service: each
// controller is a router.Controller whose typed routes bind, validate and
// document their input, call a repository and map rows to DTOs.
package controllers
