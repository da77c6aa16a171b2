// paraplan's entry point: everything else is in paraplan_core (src/cli/run_cli.cpp).
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  return paraplan::RunCli(argc, argv, std::cout, std::cerr);
}
