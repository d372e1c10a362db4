// The memory model: how Options::memory_budget_bytes is split between the tiers. Every size an
// Options leaves at Options::kAuto is resolved here once, at Open; the DB then runs with (and
// GetOptions() reports) the resolved values only.
#pragma once

#include "dbx/options.h"

namespace dbx {

/// `requested` with every kAuto size replaced: from memory_budget_bytes when it is non-zero (block
/// cache 1/4, columnar cache 1/8, WOS 1/8, delta store 1/16, write stall limit 7/16 of it), else by
/// the engine's defaults (README "Memory model"). Explicitly set sizes are kept as they are.
Options ResolveOptions(const Options& requested);

}  // namespace dbx
