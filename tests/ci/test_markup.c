/* Unit tests of host/report/markup.c and cjson_out.c's UTF-8 repair (issue 26, class 7): a firmware
 * path or marker name is whatever bytes it was, and every report format must stay valid. The
 * sequences are RFC 3629 section 4's boundaries (and its section 10 examples of ill-formed ones). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cjson_out.h"
#include "report/markup.h"

static void utf8_lengths(void **state)
{
	assert_int_equal(markup_utf8_len("a"), 1);
	assert_int_equal(markup_utf8_len("\x1a"), 1);             /* a control character is valid UTF-8 */
	assert_int_equal(markup_utf8_len("\xc3\xa9"), 2);         /* U+00E9 */
	assert_int_equal(markup_utf8_len("\xe2\x82\xac"), 3);     /* U+20AC */
	assert_int_equal(markup_utf8_len("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	assert_int_equal(markup_utf8_len("\xff"), 0);
	assert_int_equal(markup_utf8_len("\x80"), 0);             /* a lone continuation byte */
	assert_int_equal(markup_utf8_len("\xc0\xaf"), 0);         /* overlong '/' (RFC 3629 section 10) */
	assert_int_equal(markup_utf8_len("\xe0\x80\xaf"), 0);     /* overlong, 3 bytes */
	assert_int_equal(markup_utf8_len("\xed\xa0\x80"), 0);     /* U+D800, a surrogate */
	assert_int_equal(markup_utf8_len("\xf4\x90\x80\x80"), 0); /* above U+10FFFF */
	assert_int_equal(markup_utf8_len("\xe2\x82"), 0);         /* cut short by the NUL */
	assert_true(markup_utf8_valid("fut-\xc3\xa9.elf"));
	assert_false(markup_utf8_valid("sl\xff\x1a"
	                               "ed.elf"));
}

static void repair(void **state)
{
	char *s = markup_utf8_repair("sl\xff\x1a"
	                             "ed\xc3\xa9\xc3",
	                             malloc);

	assert_non_null(s);
	assert_string_equal(s, "sl\xef\xbf\xbd\x1a"
	                       "ed\xc3\xa9\xef\xbf\xbd");
	free(s);
}

static void xml_escaping(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	/* 0xff: U+FFFD; 0x1a: a space (XML 1.0 has no such Char); U+FFFE: U+FFFD (no Char either). */
	assert_int_equal(markup_xml_puts(f, "a\xff\x1a<\"&\xc3\xa9\xef\xbf\xbe"), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "a\xef\xbf\xbd &lt;&quot;&amp;\xc3\xa9\xef\xbf\xbd");
	free(buf);
}

static void cjson_tree(void **state)
{
	cJSON *root = cJSON_CreateObject(), *inner = cJSON_AddObjectToObject(root, "k\xfe");
	char *text;

	assert_non_null(inner);
	assert_non_null(cJSON_AddStringToObject(inner, "firmware",
	                                        "sl\xff\x1a"
	                                        "ed.elf"));
	assert_non_null(cJSON_AddStringToObject(inner, "ok", "fut-\xc3\xa9"));
	assert_int_equal(cjson_out_utf8(root), 0);
	text = cJSON_PrintUnformatted(root);
	assert_non_null(text);
	assert_string_equal(
	    text, "{\"k\xef\xbf\xbd\":{\"firmware\":\"sl\xef\xbf\xbd\\u001aed.elf\",\"ok\":\"fut-\xc3\xa9\"}}");
	cJSON_free(text);
	cJSON_Delete(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(utf8_lengths),
	    cmocka_unit_test(repair),
	    cmocka_unit_test(xml_escaping),
	    cmocka_unit_test(cjson_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
