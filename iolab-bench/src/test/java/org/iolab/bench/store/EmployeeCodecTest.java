package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EmployeeCodecTest {
    @Test
    void employeeNumberFollowsTheArticle() {
        Employee e = Employee.number(7);
        assertEquals(new Employee("Doe7", "John", 2007, 11907, false, "This is employee number 7"), e);
        assertTrue(Employee.number(8).employed());
        assertTrue(e.isConsistent());
        assertFalse(new Employee("Doe7", "John", 2007, 11908, false, "This is employee number 7").isConsistent());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 99_999, 149_999})
    void roundTripsHeapAndDirect(int i) {
        Employee e = Employee.number(i);
        byte[] k = EmployeeCodec.key(e);
        byte[] v = EmployeeCodec.value(e);
        assertArrayEquals(("Doe" + i).getBytes(StandardCharsets.UTF_8), k);
        assertEquals(12 + 4 + e.comments().length(), v.length);
        assertEquals(e, EmployeeCodec.decode(k, v));
        ByteBuffer dk = ByteBuffer.allocateDirect(k.length).put(k).flip();
        ByteBuffer dv = ByteBuffer.allocateDirect(v.length + 8).position(8);
        dv.put(v).position(8);
        assertEquals(e, EmployeeCodec.decode(dk, dv));
        assertEquals(8, dv.position(), "decode leaves the buffer's position alone");
    }

    @Test
    void employeeZeroIsCompact() {
        assertEquals(4, EmployeeCodec.key(Employee.number(0)).length);
        assertEquals(41, EmployeeCodec.value(Employee.number(0)).length);
    }

    @Test
    void truncatedOrPaddedValuesAreRefused() {
        byte[] v = EmployeeCodec.value(Employee.number(5));
        byte[] k = EmployeeCodec.key(Employee.number(5));
        for (int len = 0; len < v.length; len++) {
            byte[] cut = Arrays.copyOf(v, len);
            assertThrows(IolabException.class, () -> EmployeeCodec.decode(k, cut), "length " + len);
        }
        assertThrows(IolabException.class, () -> EmployeeCodec.decode(k, Arrays.copyOf(v, v.length + 1)));
        byte[] huge = v.clone();
        huge[huge.length - 26] = (byte) 0xFF; // comments length high byte: far past the end
        huge[huge.length - 25] = (byte) 0x7F;
        assertThrows(IolabException.class, () -> EmployeeCodec.decode(k, huge));
    }

    @Test
    void tooLongFieldsAreRefused() {
        Employee e = new Employee("x", "y".repeat(256), 1, 2, true, "");
        assertThrows(IolabException.class, () -> EmployeeCodec.value(e));
    }
}
