// The suites `dbx-bench run` knows. A new suite adds one line here (see workloads/suite.h).
#include "workloads/micro_suite.h"
#include "workloads/seed/seed_suite.h"
#include "workloads/sqlite_vps/vps_suite.h"
#include "workloads/suite.h"
#include "workloads/ycsb_suite.h"

namespace dbxb {

void RegisterBuiltinSuites(SuiteRegistry* registry) {
  // One line per suite. The first is the default suite of `run`.
  registry->Register(NewDbxMicroSuite());
  registry->Register(NewYcsbSuite());
  registry->Register(NewSqliteVpsSuite());
  registry->Register(NewSeedSuite());
}

const SuiteRegistry& BuiltinSuites() {
  static const SuiteRegistry* registry = [] {
    auto* r = new SuiteRegistry;
    RegisterBuiltinSuites(r);
    return r;
  }();
  return *registry;
}

}  // namespace dbxb
