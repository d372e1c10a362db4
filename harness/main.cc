// Placeholder entry point until the CLI lands (harness/cli.cc).
#include "adapters/adapter.h"
#include <fmt/format.h>
int main() {
  for (const auto& f : dbxb::BuiltinAdapters().factories()) fmt::print("{}\t{}\n", f.name, f.library_version());
  return 0;
}
