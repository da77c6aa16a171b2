// The Catch2 test runner; every *_test.cpp under tests/ is linked into this one executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
