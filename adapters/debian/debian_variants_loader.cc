// The executable's side of adapters/debian/debian_variants.h: loading the module and registering its
// factories as variants.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

#include "adapters/debian/debian_variants.h"

namespace dbxb {
namespace {

std::string& Problem() {
  static std::string problem;
  return problem;
}

#ifdef DBXB_DEBIAN_VARIANTS_MODULE
// The module next to the running executable (an installed or copied dbx-bench), else where this build
// wrote it (the tests, which run from other directories of the build).
std::string ModulePath() {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string dir(exe, static_cast<size_t>(n));
    dir.resize(dir.rfind('/') + 1);
    std::string beside = dir + "libdbxb-debian-engines.so";
    if (access(beside.c_str(), F_OK) == 0) return beside;
  }
  return DBXB_DEBIAN_VARIANTS_MODULE;
}
#endif

}  // namespace

const std::string& DebianVariantsProblem() { return Problem(); }

void RegisterDebianVariants(AdapterRegistry* registry) {
#ifndef DBXB_DEBIAN_VARIANTS_MODULE
  (void)registry;
  Problem() = "this build has no Debian variants (configured with -DDBXB_DEBIAN_VARIANTS=OFF)";
#else
  const std::string path = ModulePath();
  // Never closed: the factories' code lives in it for the rest of the process.
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (module == nullptr) {
    const char* why = dlerror();
    Problem() = "the Debian variants' module did not load: " + std::string(why ? why : path);
    return;
  }
  auto entry = reinterpret_cast<decltype(&dbxb_debian_engines)>(dlsym(module, "dbxb_debian_engines"));
  std::vector<AdapterFactory> factories;
  if (entry == nullptr || !entry(kVariantsAbi, sizeof(AdapterFactory), &factories)) {
    Problem() = path + " is not this build's Debian variants module (rebuild it)";
    return;
  }
  for (AdapterFactory& f : factories) {
    f.variant_of = f.name;
    f.name += "@debian";
    f.description += " (Debian 12's build)";
    (void)registry->Register(std::move(f));
  }
#endif
}

}  // namespace dbxb
