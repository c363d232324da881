package com.baomidou.mybatisplus.core.incrementer;

/** Stand-in for MyBatis-Plus's ID hook (3.3+): the one abstract method, from its published signature. */
public interface IdentifierGenerator {
    Number nextId(Object entity);
}
