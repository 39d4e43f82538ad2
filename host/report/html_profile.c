/* The HTML page's exact profiles (html_profile.h). The listing is grouped by function (most cycles
 * first), then by address; a row with the source file, line and its text (when the file can be
 * read from here) heads each run of instructions of one line, as objdump -S interleaves them. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "report/html_profile.h"
#include "report/markup.h"

#define BAR_PX      120 /* the widest cycle bar */
#define FLAME_W     960 /* the flame graph's width and row height, in px */
#define FLAME_H     18
#define FLAME_DEPTH 64

static void td_text(FILE *out, const char *cls, const char *s)
{
	fprintf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	markup_xml_puts(out, s);
	fputs("</td>", out);
}

/* Line `line` of `file`, without its newline; "" when the file cannot be read here. */
static void source_text(const char *file, unsigned line, char *out, size_t len)
{
	FILE *f = file[0] && line ? fopen(file, "r") : NULL;
	unsigned n = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(out, (int)len, f) && ++n < line)
		;
	if (n != line)
		out[0] = '\0';
	out[strcspn(out, "\r\n")] = '\0';
	(void)fclose(f);
}

static void functions(FILE *out, const struct bench_profile *p)
{
	fputs("<table>\n<tr><th>function</th><th>cycles</th><th>share</th><th>inclusive</th><th>calls</th>"
	      "<th>instructions</th><th>main reasons (cycles)</th></tr>\n",
	      out);
	for (size_t i = 0; i < p->n_functions; i++) {
		const struct bench_profile_fn *f = &p->functions[i];
		char why[160];
		results_profile_main_reasons(p, f->by_reason, why, sizeof(why));
		fputs("<tr>", out);
		td_text(out, NULL, f->name);
		fprintf(out,
		        "<td>%" PRIu64 "</td><td>%.2f %%</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
		        "</td>",
		        f->self, 100.0 * f->share, f->incl, f->calls, f->execs);
		td_text(out, NULL, why);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void listing(FILE *out, const struct bench_profile *p)
{
	uint64_t most = 1;

	for (size_t i = 0; i < p->n_insns; i++)
		most = p->insns[i].cycles > most ? p->insns[i].cycles : most;
	fputs("<table class=\"asm\">\n<tr><th>address</th><th>executions</th><th>cycles</th><th></th>"
	      "<th>instruction</th><th>reasons (cycles)</th></tr>\n",
	      out);
	for (size_t f = 0; f < p->n_functions; f++) {
		const char *fn = p->functions[f].name, *file = NULL;
		unsigned line = 0;
		bool any = false;

		for (size_t i = 0; i < p->n_insns; i++) {
			const struct bench_profile_insn *in = &p->insns[i];
			char text[512], why[160], head[600];
			if (strcmp(in->function, fn))
				continue;
			if (!any) {
				str_fmt_cut(head, sizeof(head), "%s: %" PRIu64 " cycles", fn, p->functions[f].self);
				fputs("<tr class=\"fn\">", out);
				fputs("<td colspan=\"6\">", out);
				markup_xml_puts(out, head);
				fputs("</td></tr>\n", out);
				any = true;
			}
			if (!file || strcmp(file, in->file) || line != in->line) {
				file = in->file;
				line = in->line;
				source_text(in->file, in->line, text, sizeof(text));
				if (in->line)
					str_fmt_cut(head, sizeof(head), "%s:%u   %s", results_basename(in->file),
					            in->line, text);
				else
					str_fmt_cut(head, sizeof(head), "(no source line)");
				fputs("<tr class=\"src\"><td colspan=\"6\">", out);
				markup_xml_puts(out, head);
				fputs("</td></tr>\n", out);
			}
			results_profile_main_reasons(p, in->by_reason, why, sizeof(why));
			fprintf(out,
			        "<tr><td>0x%08" PRIx32 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			        "</td><td><div class=\"bar\" style=\"width:%upx\"></div></td>",
			        in->addr, in->execs, in->cycles, (unsigned)(BAR_PX * in->cycles / most));
			td_text(out, "code", in->disasm[0] ? in->disasm : "?");
			td_text(out, NULL, why);
			fputs("</tr>\n", out);
		}
	}
	fputs("</table>\n", out);
}

/* The length of the first d + 1 frames of a folded stack; 0 when it has fewer. */
static size_t prefix_len(const char *frames, size_t d)
{
	const char *p = frames;

	for (size_t k = 0; k < d; k++) {
		p = strchr(p, ';');
		if (!p)
			return 0;
		p++;
	}
	return *p ? (size_t)(p - frames) + strcspn(p, ";") : 0;
}

/* A stack by reference, for sorting the profile's stacks by their frames without moving them. */
struct stack_ref {
	const struct bench_profile_stack *s;
};

static int cmp_frames(const void *a, const void *b)
{
	return strcmp(((const struct stack_ref *)a)->s->frames, ((const struct stack_ref *)b)->s->frames);
}

/* A flame graph of the stacks (Brendan Gregg's layout: the outermost frame at the bottom, each
 * frame as wide as its cycles, callees above their callers, siblings in name order), drawn as
 * inline SVG with a title per frame for its cycles. */
static void flame(FILE *out, const struct bench_profile *p)
{
	struct stack_ref *v = calloc(p->n_stacks ? p->n_stacks : 1, sizeof(*v));
	size_t n = 0, depth = 0;

	if (!v || !p->total) {
		free(v);
		return;
	}
	for (size_t i = 0; i < p->n_stacks; i++)
		if (p->stacks[i].cycles)
			v[n++].s = &p->stacks[i];
	qsort(v, n, sizeof(*v), cmp_frames);
	while (depth < FLAME_DEPTH) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = prefix_len(v[i].s->frames, depth) > 0;
		if (!any)
			break;
		depth++;
	}
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" font-size=\"11\">\n",
	        FLAME_W, depth * FLAME_H);
	for (size_t d = 0; d < depth; d++) {
		uint64_t x = 0;
		for (size_t i = 0; i < n;) {
			size_t len = prefix_len(v[i].s->frames, d), j = i;
			uint64_t w = 0;
			if (!len) {
				x += v[i++].s->cycles;
				continue;
			}
			while (j < n && prefix_len(v[j].s->frames, d) == len &&
			       !strncmp(v[j].s->frames, v[i].s->frames, len))
				w += v[j++].s->cycles;
			{
				const char *name = v[i].s->frames + len;
				char label[BENCH_NAME_MAX + 64];
				double px = (double)FLAME_W * (double)x / (double)p->total,
				       pw = (double)FLAME_W * (double)w / (double)p->total;
				unsigned hue = 0;
				while (name > v[i].s->frames && name[-1] != ';')
					name--;
				str_fmt_cut(label, sizeof(label), "%.*s", (int)(v[i].s->frames + len - name), name);
				for (const char *c = label; *c; c++)
					hue = hue * 31u + (unsigned char)*c;
				fputs("<g><title>", out);
				markup_xml_puts(out, label);
				fprintf(out,
				        ": %" PRIu64
				        " cycles (%.2f %%)</title><rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" "
				        "height=\"%d\" fill=\"hsl(%u,80%%,60%%)\" stroke=\"#fff\"/>",
				        w, 100.0 * (double)w / (double)p->total, px, (depth - 1 - d) * FLAME_H, pw,
				        FLAME_H - 1, 10u + hue % 40u);
				if (pw > 7.0 * 6) {
					fprintf(out, "<text x=\"%.1f\" y=\"%zu\">", px + 3,
					        (depth - 1 - d) * FLAME_H + 13);
					/* As many characters as fit, about 6.5 px each at 11 px. */
					size_t fit = (size_t)((pw - 6) / 6.5);
					char shown[BENCH_NAME_MAX + 64];
					str_fmt_cut(shown, sizeof(shown), "%.*s",
					            (int)(fit < strlen(label) ? fit : strlen(label)), label);
					markup_xml_puts(out, shown);
					fputs("</text>", out);
				}
				fputs("</g>\n", out);
			}
			x += w;
			i = j;
		}
	}
	fputs("</svg>\n", out);
	free(v);
}

bool html_profile_any(const struct bench_report *rep)
{
	for (size_t i = 0; i < rep->n_profiles; i++)
		if (rep->profiles[i].exact)
			return true;
	return false;
}

void html_profile(FILE *out, const struct bench_report *rep)
{
	for (size_t i = 0; i < rep->n_profiles; i++) {
		const struct bench_profile *p = &rep->profiles[i];
		char head[400];

		if (!p->exact)
			continue;
		str_fmt_cut(head, sizeof(head), "Profile %s", p->name);
		for (size_t a = 0; a < p->n_args; a++)
			(void)str_append(head, sizeof(head), "%s%s=%" PRId64, a ? "," : "[", p->args[a].name,
			                 p->args[a].value);
		(void)str_append(head, sizeof(head), "%s: %" PRIu64 " cycles %s", p->n_args ? "]" : "", p->total,
		                 p->summed ? "summed over its stretches" : "a stretch");
		fputs("<h2>", out);
		markup_xml_puts(out, head);
		fputs("</h2>\n<p class=\"note\">Exact, from the virtual board's cycle ledger (docs/profile.md).</p>\n",
		      out);
		functions(out, p);
		if (p->n_stacks) {
			fputs("<h3>Flame graph</h3>\n", out);
			flame(out, p);
		}
		if (p->n_insns) {
			fputs("<h3>Annotated listing</h3>\n", out);
			listing(out, p);
		}
	}
}
