package com.baidu.fsg.uid;

import com.baidu.fsg.uid.exception.UidGenerateException;

/** Stand-in for Baidu UidGenerator's interface, written from its published signature. */
public interface UidGenerator {
    long getUID() throws UidGenerateException;

    String parseUID(long uid);
}
