#!/bin/sh
# A "binary" for ab that never finishes (tests/bad_input_rows.cc: the round timeout).
exec sleep 1000
