// The values of engines' native options ("<engine>.<name>" = text, AdapterOptions::native_options), parsed
// one way for every adapter: the same kinds of value are accepted and refused with the same message.
#pragma once

#include <charconv>
#include <limits>
#include <string>
#include <string_view>

#include "common/status.h"

namespace dbxb {

/// Parses all of `text` as a decimal integer in [min, max] into *out. Otherwise InvalidArgument
/// "<key>: expected <what> in [min, max], got '<text>'" ("of at least min" when max is T's largest value);
/// *out is then unchanged. `what` names the unit, e.g. "an integer" or "a byte count".
template <typename T>
Status ParseNativeNumber(std::string_view key, std::string_view text, std::string_view what, T min, T max, T* out) {
  T v{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc() && end == text.data() + text.size() && v >= min && v <= max) {
    *out = v;
    return Status::Ok();
  }
  std::string range = max == std::numeric_limits<T>::max()
                          ? " of at least " + std::to_string(min)
                          : " in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  return Status::InvalidArgument(std::string(key) + ": expected " + std::string(what) + range + ", got '" +
                                 std::string(text) + "'");
}

/// Parses "on" or "off" into *on. Otherwise InvalidArgument "<key>: expected on or off, got '<text>'".
inline Status ParseNativeSwitch(std::string_view key, std::string_view text, bool* on) {
  if (text != "on" && text != "off")
    return Status::InvalidArgument(std::string(key) + ": expected on or off, got '" + std::string(text) + "'");
  *on = text == "on";
  return Status::Ok();
}

}  // namespace dbxb
