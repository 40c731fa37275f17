package io.rmq.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ContentTextTest {

    @Test
    void plainTextStaysAsItIs() {
        assertThat(ContentText.escape(utf8("close:42 über ✓"))).isEqualTo("close:42 über ✓");
    }

    @Test
    void controlCharactersLineBreaksAndBackslashesAreEscaped() {
        assertThat(ContentText.escape(utf8("a\nb\r\tc\\d\u001b[0m\u2028")))
                .isEqualTo("a\\nb\\r\\tc\\\\d\\u001b[0m\\u2028");
    }

    @Test
    void bytesThatAreNotUtf8AreShownOneByOne() {
        byte[] content = {'o', 'k', (byte) 0xff, (byte) 0xc3, 'x', 0x00, (byte) 0xe2, (byte) 0x9c};
        assertThat(ContentText.escape(content)).isEqualTo("ok\\xff\\xc3x\\u0000\\xe2\\x9c");
        assertThat(ContentText.utf8(content)).isEmpty();
        assertThat(ContentText.utf8(utf8("fine"))).hasValue("fine");
    }

    @Test
    void aPreviewIsShortenedWithAnEllipsisWithoutCuttingAnEscape() {
        assertThat(ContentText.preview(utf8("abcdef"), 6)).isEqualTo("abcdef");
        assertThat(ContentText.preview(utf8("abcdefg"), 6)).isEqualTo("abcde…");
        assertThat(ContentText.preview(new byte[] {'a', 'b', 'c', (byte) 0xff, 'z'}, 6)).isEqualTo("abc…");
        assertThat(ContentText.preview(utf8("😀😀"), 2)).as("characters, not UTF-16 units").isEqualTo("😀😀");
        assertThat(ContentText.preview(utf8("😀😀😀"), 2)).isEqualTo("😀…");
        assertThat(ContentText.preview(utf8("ab"), 1)).isEqualTo("…");
        assertThatThrownBy(() -> ContentText.preview(utf8("ab"), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailureMessageIsEscapedToo() {
        assertThat(ContentText.escape("boom\n\tat x", Integer.MAX_VALUE)).isEqualTo("boom\\n\\tat x");
    }

    @Test
    void distinctContentsNeverLookAlike() {
        assertThat(ContentText.escape(utf8("\\n"))).isNotEqualTo(ContentText.escape(utf8("\n")));
        assertThat(ContentText.escape(utf8("\\xff"))).isNotEqualTo(ContentText.escape(new byte[] {(byte) 0xff}));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
