"""What the tests and the benchmarks drive the service with, kept out of the product.

`harness` runs real service processes, `redis_server` and `cluster` real Redis servers and
clusters that a test may kill and restart, `rpc`, `rawh2` and `wsclient` talk to the service
below the SDK, and `inprocess` builds the pieces of a service run inside the caller's process.
The service never imports this package (tests/test_support_package.py checks it) and its image
does not install it (deploy/Dockerfile); `bench/` imports it and the product's public API only.
"""
