#include "records/sweep_json.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "records/json_fields.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

// Capacity figures are finite by construction; a non-finite one (a failed step) is written as 0.
Json Finite(double v) { return std::isfinite(v) ? v : 0.0; }

Json LatencyToJson(const StepLatency& l) {
  return Json{{"sla_percentile_ns", Finite(l.sla_percentile_ns)},
              {"p50_ns", Finite(l.p50_ns)},
              {"p99_ns", Finite(l.p99_ns)},
              {"p999_ns", Finite(l.p999_ns)},
              {"max_ns", Finite(l.max_ns)}};
}

Json StepToJson(const CapacityStep& s) {
  return Json{{"role", s.role},
              {"target_rate", Finite(s.target_rate)},
              {"achieved_ops_per_sec", Finite(s.achieved_ops_per_sec)},
              {"operations", s.operations},
              {"duration_ns", Finite(s.duration_ns)},
              {"warmup_operations", s.warmup_operations},
              {"late_operations", s.late_operations},
              {"dropped_operations", s.dropped_operations},
              {"service_time", LatencyToJson(s.service_time)},
              {"from_intended", LatencyToJson(s.from_intended)},
              {"met_sla", s.met_sla},
              {"kept_up", s.kept_up},
              {"settle_ns", s.settle_ns ? Finite(*s.settle_ns) : Json(nullptr)},
              {"error", s.error}};
}

Json ResultToJson(const CapacityResult& c) {
  Json steps = Json::array();
  for (const CapacityStep& s : c.steps) steps.push_back(StepToJson(s));
  return Json{{"suite", c.suite},
              {"workload", c.workload},
              {"dataset", c.dataset},
              {"phase", c.phase},
              {"engine", c.engine},
              {"parameters", StringsToJson(c.parameters)},
              {"memory_method", c.memory_method},
              {"threads", c.threads},
              {"sla", c.sla},
              {"percentile", Finite(c.percentile)},
              {"bound_ns", Finite(c.bound_ns)},
              {"latency", c.latency},
              {"keep_up", Finite(c.keep_up)},
              {"resolution", Finite(c.resolution)},
              {"capacity_ops_per_sec", Finite(c.capacity_ops_per_sec)},
              {"lower_step", c.lower_step},
              {"upper_step", c.upper_step},
              {"steps", std::move(steps)},
              {"search_seconds", Finite(c.search_seconds)},
              {"measured_seconds", Finite(c.measured_seconds)},
              {"harness_floor_ns", Finite(c.harness_floor_ns)},
              {"note", c.note},
              {"error_occurred", c.error_occurred},
              {"error_message", c.error_message}};
}

Status LatencyFromJson(const Json& j, const std::string& path, StepLatency* l) {
  JsonFields f(j, path);
  DBXB_RETURN_IF_ERROR(f.Double("sla_percentile_ns", &l->sla_percentile_ns));
  DBXB_RETURN_IF_ERROR(f.Double("p50_ns", &l->p50_ns));
  DBXB_RETURN_IF_ERROR(f.Double("p99_ns", &l->p99_ns));
  DBXB_RETURN_IF_ERROR(f.Double("p999_ns", &l->p999_ns));
  return f.Double("max_ns", &l->max_ns);
}

Status StepFromJson(const Json& j, const std::string& path, CapacityStep* s) {
  DBXB_RETURN_IF_ERROR(JsonFields::CheckObject(j, path));
  JsonFields f(j, path);
  DBXB_RETURN_IF_ERROR(f.String("role", &s->role));
  DBXB_RETURN_IF_ERROR(f.Double("target_rate", &s->target_rate));
  DBXB_RETURN_IF_ERROR(f.Double("achieved_ops_per_sec", &s->achieved_ops_per_sec));
  DBXB_RETURN_IF_ERROR(f.Uint("operations", &s->operations));
  DBXB_RETURN_IF_ERROR(f.Double("duration_ns", &s->duration_ns));
  DBXB_RETURN_IF_ERROR(f.Uint("warmup_operations", &s->warmup_operations));
  DBXB_RETURN_IF_ERROR(f.Uint("late_operations", &s->late_operations));
  DBXB_RETURN_IF_ERROR(f.Uint("dropped_operations", &s->dropped_operations));
  const Json* latency = nullptr;
  std::string here;
  DBXB_RETURN_IF_ERROR(f.Object("service_time", &latency, &here));
  DBXB_RETURN_IF_ERROR(LatencyFromJson(*latency, here, &s->service_time));
  DBXB_RETURN_IF_ERROR(f.Object("from_intended", &latency, &here));
  DBXB_RETURN_IF_ERROR(LatencyFromJson(*latency, here, &s->from_intended));
  DBXB_RETURN_IF_ERROR(f.Bool("met_sla", &s->met_sla));
  DBXB_RETURN_IF_ERROR(f.Bool("kept_up", &s->kept_up));
  DBXB_RETURN_IF_ERROR(f.OptionalDouble("settle_ns", &s->settle_ns));
  return f.String("error", &s->error);
}

Status ResultFromJson(const Json& j, const std::string& path, CapacityResult* c) {
  DBXB_RETURN_IF_ERROR(JsonFields::CheckObject(j, path));
  JsonFields f(j, path);
  DBXB_RETURN_IF_ERROR(f.String("suite", &c->suite));
  DBXB_RETURN_IF_ERROR(f.String("workload", &c->workload));
  DBXB_RETURN_IF_ERROR(f.String("dataset", &c->dataset));
  DBXB_RETURN_IF_ERROR(f.String("phase", &c->phase));
  DBXB_RETURN_IF_ERROR(f.String("engine", &c->engine));
  DBXB_RETURN_IF_ERROR(f.Strings("parameters", &c->parameters));
  if (j.contains("memory_method")) {
    DBXB_RETURN_IF_ERROR(f.String("memory_method", &c->memory_method));
  } else {  // the first files kept it among the parameters (the phase's kMemoryMethodParameter)
    for (auto it = c->parameters.begin(); it != c->parameters.end(); ++it) {
      if (it->first != "memory_method") continue;
      c->memory_method = it->second;
      c->parameters.erase(it);
      break;
    }
  }
  DBXB_RETURN_IF_ERROR(f.Uint32("threads", &c->threads));
  DBXB_RETURN_IF_ERROR(f.String("sla", &c->sla));
  DBXB_RETURN_IF_ERROR(f.Double("percentile", &c->percentile));
  DBXB_RETURN_IF_ERROR(f.Double("bound_ns", &c->bound_ns));
  DBXB_RETURN_IF_ERROR(f.String("latency", &c->latency));
  DBXB_RETURN_IF_ERROR(f.Double("keep_up", &c->keep_up));
  DBXB_RETURN_IF_ERROR(f.Double("resolution", &c->resolution));
  DBXB_RETURN_IF_ERROR(f.Double("capacity_ops_per_sec", &c->capacity_ops_per_sec));
  DBXB_RETURN_IF_ERROR(f.Int("lower_step", &c->lower_step));
  DBXB_RETURN_IF_ERROR(f.Int("upper_step", &c->upper_step));
  const Json* steps = nullptr;
  std::string here;
  DBXB_RETURN_IF_ERROR(f.Array("steps", &steps, &here));
  c->steps.clear();
  for (size_t i = 0; i < steps->size(); ++i) {
    CapacityStep s;
    DBXB_RETURN_IF_ERROR(StepFromJson((*steps)[i], JsonFields::Element(here, i), &s));
    c->steps.push_back(std::move(s));
  }
  const int n = static_cast<int>(c->steps.size());
  if (c->lower_step < -1 || c->lower_step >= n || c->upper_step < -1 || c->upper_step >= n)
    return Status::InvalidArgument(fmt::format("{}: lower_step or upper_step is not -1 or an index into steps", path));
  DBXB_RETURN_IF_ERROR(f.Double("search_seconds", &c->search_seconds));
  DBXB_RETURN_IF_ERROR(f.Double("measured_seconds", &c->measured_seconds));
  DBXB_RETURN_IF_ERROR(f.Double("harness_floor_ns", &c->harness_floor_ns));
  DBXB_RETURN_IF_ERROR(f.String("note", &c->note));
  DBXB_RETURN_IF_ERROR(f.Bool("error_occurred", &c->error_occurred));
  return f.String("error_message", &c->error_message);
}

Status PointFromJson(const Json& j, const std::string& path, SweepPoint* p) {
  DBXB_RETURN_IF_ERROR(JsonFields::CheckObject(j, path));
  JsonFields f(j, path);
  DBXB_RETURN_IF_ERROR(f.Strings("values", &p->values));
  DBXB_RETURN_IF_ERROR(f.String("status", &p->status));
  DBXB_RETURN_IF_ERROR(f.String("message", &p->message));
  return f.Double("seconds", &p->seconds);
}

Status DimensionFromJson(const Json& j, const std::string& path, SweepDimension* d) {
  DBXB_RETURN_IF_ERROR(JsonFields::CheckObject(j, path));
  JsonFields f(j, path);
  DBXB_RETURN_IF_ERROR(f.String("name", &d->name));
  DBXB_RETURN_IF_ERROR(f.String("option", &d->option));
  DBXB_RETURN_IF_ERROR(f.StringList("values", &d->values));
  if (d->values.empty()) return Status::InvalidArgument(path + ".values: a dimension needs at least one value");
  return Status::Ok();
}

}  // namespace

Json SweepToJson(const SweepInfo& sweep) {
  Json dimensions = Json::array(), points = Json::array();
  for (const SweepDimension& d : sweep.dimensions)
    dimensions.push_back(Json{{"name", d.name}, {"option", d.option}, {"values", d.values}});
  for (const SweepPoint& p : sweep.points) {
    points.push_back(Json{{"values", StringsToJson(p.values)},
                          {"status", p.status},
                          {"message", p.message},
                          {"seconds", Finite(p.seconds)}});
  }
  return Json{{"dimensions", std::move(dimensions)}, {"points", std::move(points)}};
}

Json CapacityToJson(const std::vector<CapacityResult>& capacity) {
  Json out = Json::array();
  for (const CapacityResult& c : capacity) out.push_back(ResultToJson(c));
  return out;
}

Status SweepFromJson(const Json& top, std::optional<SweepInfo>* out) {
  auto it = top.find("sweep");
  if (it == top.end() || it->is_null()) {
    out->reset();
    return Status::Ok();
  }
  DBXB_RETURN_IF_ERROR(JsonFields::CheckObject(*it, "sweep"));
  JsonFields f(*it, "sweep");
  SweepInfo sweep;
  const Json* list = nullptr;
  std::string here;
  DBXB_RETURN_IF_ERROR(f.Array("dimensions", &list, &here));
  for (size_t i = 0; i < list->size(); ++i) {
    SweepDimension d;
    DBXB_RETURN_IF_ERROR(DimensionFromJson((*list)[i], JsonFields::Element(here, i), &d));
    sweep.dimensions.push_back(std::move(d));
  }
  if (sweep.dimensions.empty()) return Status::InvalidArgument("sweep.dimensions: a sweep needs a dimension");
  DBXB_RETURN_IF_ERROR(f.Array("points", &list, &here));
  for (size_t i = 0; i < list->size(); ++i) {
    SweepPoint p;
    DBXB_RETURN_IF_ERROR(PointFromJson((*list)[i], JsonFields::Element(here, i), &p));
    sweep.points.push_back(std::move(p));
  }
  *out = std::move(sweep);
  return Status::Ok();
}

Status CapacityFromJson(const Json& top, std::vector<CapacityResult>* out) {
  auto it = top.find("capacity");
  out->clear();
  if (it == top.end() || it->is_null()) return Status::Ok();
  if (!it->is_array()) return Status::InvalidArgument(fmt::format("capacity: expected array, got {}", it->type_name()));
  for (size_t i = 0; i < it->size(); ++i) {
    CapacityResult c;
    DBXB_RETURN_IF_ERROR(ResultFromJson((*it)[i], JsonFields::Element("capacity", i), &c));
    out->push_back(std::move(c));
  }
  return Status::Ok();
}

}  // namespace dbxb
