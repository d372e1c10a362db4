#include "adapters/adapter.h"

#include <algorithm>

namespace dbxb {

Status NativeLoopMismatch(uint64_t i, bool found) {
  return Status::Corruption("native loop: row " + std::to_string(i) + (found ? " has a wrong value" : " not found"));
}

std::string_view DurabilityName(Durability d) {
  switch (d) {
    case Durability::kNone:
      return "none";
    case Durability::kNormal:
      return "normal";
    case Durability::kFull:
      return "full";
  }
  return "unknown";
}

bool ParseDurability(std::string_view text, Durability* out) {
  if (text == "none")
    *out = Durability::kNone;
  else if (text == "normal")
    *out = Durability::kNormal;
  else if (text == "full")
    *out = Durability::kFull;
  else
    return false;
  return true;
}

Status CheckNativeOptions(const AdapterFactory& engine, const AdapterOptions& options) {
  const std::string prefix = OptionPrefix(engine) + ".";
  for (const auto& [key, value] : options.native_options) {
    if (key.find('.') == std::string::npos || key.front() == '.')
      return Status::InvalidArgument("native option '" + key + "' has no '<engine>.' prefix");
    if (key.compare(0, prefix.size(), prefix) != 0) continue;  // another engine's setting
    if (FindNativeOption(engine, key) == nullptr)
      return Status::InvalidArgument("unknown native option '" + key + "' for engine " + engine.name);
  }
  return Status::Ok();
}

const NativeOption* FindNativeOption(const AdapterFactory& engine, std::string_view key) {
  for (const NativeOption& option : engine.native_options)
    if (option.key == key) return &option;
  return nullptr;
}

const std::string* RefusedDurability(const AdapterFactory& engine, Durability d) {
  for (const auto& [level, reason] : engine.refused_durabilities)
    if (level == d) return &reason;
  return nullptr;
}

Status AdapterRegistry::Register(AdapterFactory factory) {
  if (Find(factory.name) != nullptr) return Status::InvalidArgument("engine registered twice: " + factory.name);
  // Checked here, once for every engine, so that no adapter can silently ignore a setting meant for it
  // or run at a durability it cannot honour.
  factory.open = [checked = factory,
                  open = factory.open](const AdapterOptions& options) -> Result<std::unique_ptr<Adapter>> {
    DBXB_RETURN_IF_ERROR(CheckNativeOptions(checked, options));
    if (const std::string* why = RefusedDurability(checked, options.durability))
      return Status::NotSupported(checked.name + " cannot honour durability " +
                                  std::string(DurabilityName(options.durability)) + ": " + *why);
    return open(options);
  };
  factories_.push_back(std::move(factory));
  return Status::Ok();
}

const AdapterFactory* AdapterRegistry::Find(std::string_view name) const {
  for (const auto& f : factories_)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace dbxb
