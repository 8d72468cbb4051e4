// The racelab binary: the engine's command line over the built-in catalog.
#include "catalog.h"
#include "racelab/cli.h"

int main(int argc, char** argv) {
  racelab::Registry registry;
  racelab::register_builtin_catalog(registry);
  return racelab::run_cli(registry, argc, argv);
}
