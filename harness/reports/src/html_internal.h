// What the files of index.html share (html.cc: the page; html_swimlane.cc:
// a case's SVG pictures, the swimlane and the outcome histogram;
// html_assets.cc: the page's inline CSS and JavaScript). Private to these
// files.
#ifndef RACELAB_REPORTS_HTML_INTERNAL_H_
#define RACELAB_REPORTS_HTML_INTERNAL_H_

#include <string>

#include "racelab/report.h"

namespace racelab::html_internal {

// The outcome histogram of a case's repeated runs (outcome -> runs), as
// jcstress shows it: svg.histogram g.bar[data-outcome].
void histogram_svg(std::string& out, const CaseResult& c);
// The swimlane of a case's trace (the minimal failing schedule of a
// controlled run): one lane per logical thread, svg.swimlane.
void swimlane_svg(std::string& out, const CaseResult& c);

// The page's inline style sheet and script.
extern const char* const kStyle;
extern const char* const kScript;

}  // namespace racelab::html_internal

#endif  // RACELAB_REPORTS_HTML_INTERNAL_H_
