package com.baidu.fsg.uid.exception;

/** Stand-in for UidGenerator's unchecked failure, with the constructors the adapters use. */
public class UidGenerateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UidGenerateException(String message, Throwable cause) {
        super(message, cause);
    }

    public UidGenerateException(String message) {
        super(message);
    }
}
