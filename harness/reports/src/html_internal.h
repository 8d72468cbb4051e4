// What the files of index.html share (html.cc: the page; html_explore.cc:
// its parts for `racelab explore`; html_swimlane.cc:
// a case's SVG pictures, the swimlane and the outcome histogram;
// html_assets.cc: the page's inline CSS and JavaScript). Private to these
// files.
#ifndef RACELAB_REPORTS_HTML_INTERNAL_H_
#define RACELAB_REPORTS_HTML_INTERNAL_H_

#include <string>
#include <vector>

#include "racelab/report.h"

namespace racelab::html_internal {

// The outcome histogram of a case's repeated runs (outcome -> runs), as
// jcstress shows it: svg.histogram g.bar[data-outcome].
void histogram_svg(std::string& out, const CaseResult& c);
// The swimlane of a case's trace (the minimal failing schedule of a
// controlled run): one lane per logical thread, svg.swimlane.
void swimlane_svg(std::string& out, const CaseResult& c);

// The page of `racelab explore` (html_explore.cc): the legend and filters,
// the findings and a table of the cases (in place of the gate's mismatches
// and case matrix), and the facts of a case (inside its dl.facts).
void explore_legend_html(std::string& out);
void explore_overview_html(std::string& out, const GateResult& result,
                           const GateOptions& options,
                           const std::vector<std::string>& ids);
void explore_facts_html(std::string& out, const CaseResult& c, RunKind kind);

// The page's inline style sheet and script.
extern const char* const kStyle;
extern const char* const kScript;

}  // namespace racelab::html_internal

#endif  // RACELAB_REPORTS_HTML_INTERNAL_H_
