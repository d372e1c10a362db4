#include "records/sweep_json.h"

namespace dbxb {

void TakeMemoryMethodParameter(CapacityResult* c) {
  for (auto it = c->parameters.begin(); it != c->parameters.end(); ++it) {
    if (it->first != "memory_method") continue;
    c->memory_method = it->second;
    c->parameters.erase(it);
    return;
  }
}

}  // namespace dbxb
