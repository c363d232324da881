package com.sankuai.inf.leaf.common;

/** Stand-in for Leaf's result (an ID, or a negative code with EXCEPTION), from its published signature. */
public class Result {
    private long id;
    private Status status;

    public Result() {}

    public Result(long id, Status status) {
        this.id = id;
        this.status = status;
    }

    public long getId() { return id; }

    public void setId(long id) { this.id = id; }

    public Status getStatus() { return status; }

    public void setStatus(Status status) { this.status = status; }
}
